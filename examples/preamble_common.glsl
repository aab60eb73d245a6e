// The preamble a framework generates for every one of its shaders (examples/preamble.toml gives
// it as the family's `preamble`): its storage and arithmetic types, its load and store macros, and
// its local size, which the framework sets through specialization constants 233 to 235. It is
// inserted after each shader's #version line.
#define sfp float
#define afp float
#define buffer_ld1(buf, i) afp(buf[i])
#define buffer_st1(buf, i, v) \
  { buf[i] = sfp(v); }
layout(local_size_x_id = 233, local_size_y_id = 234, local_size_z_id = 235) in;
