#include "harness/measure/session.hpp"

#include "harness/measure/session_state.hpp"

namespace csbench {

Session::Session()
    : selection_(std::make_unique<SelectionState>()),
      cases_(std::make_unique<CaseState>()),
      ceilings_(std::make_unique<CeilingState>()) {}

Session::~Session() = default;

Session& TheSession() {
  static Session session;
  return session;
}

}  // namespace csbench
