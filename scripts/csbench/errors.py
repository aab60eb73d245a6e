"""What the package raises for its command lines to report: nothing here prints or exits.

Bad input is runs.InputError, whose message each command line prints after its own name.  A
CommandError carries its whole line for stderr and the exit status, for a failure that is the
same whichever command meets it (a missing library).
"""


class CommandError(Exception):
    """A failure that ends the command: `message` is its line on stderr as it is printed,
    `exit_code` the exit status."""

    def __init__(self, message, exit_code):
        super().__init__(message)
        self.message = message
        self.exit_code = exit_code


class MissingModule(CommandError):
    """A module that the call needs is not installed: bad set-up, not a regression (exit 2,
    never 1).  `name` is the module's."""

    def __init__(self, message, exit_code, name):
        super().__init__(message, exit_code)
        self.name = name


def failure(prog, error, prefix="error: "):
    """What a command line prints on stderr for an error that ends it, and its exit status:
    (line, status). A CommandError's own line and status; bad input (runs.InputError) as
    "PROG: PREFIX<message>", status 2."""
    if isinstance(error, CommandError):
        return error.message, error.exit_code
    # 2 is runs.EXIT_BAD_INPUT, not imported here: runs imports stats, which imports this module.
    return f"{prog}: {prefix}{error}", 2
