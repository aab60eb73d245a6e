#version 450
// A dispatch replayed from files (replay.toml): a program's own inputs read from files, its own
// outputs the check. Each invocation takes one float of x and one texel of a 16x16 rgba8 picture:
// y = x * x - 0.5 * x, and the texel's luma (0.299 r + 0.587 g + 0.114 b) into an r32f image.
// Macros: none. Specialization constants: 0 the workgroup's width.
// Bindings: 0 x float[] (read), 1 y float[] (written), 2 picture (rgba8 image2D, read),
// 3 luma (r32f image2D, written). Push constants: n, the floats; width and height, the picture's.
layout(local_size_x_id = 0) in;

layout(std430, binding = 0) readonly buffer X { float x[]; };
layout(std430, binding = 1) writeonly buffer Y { float y[]; };
layout(binding = 2, rgba8) uniform readonly image2D picture;
layout(binding = 3, r32f) uniform writeonly image2D luma;
layout(push_constant) uniform Parameters {
  uint n;
  uint width;
  uint height;
};

void main() {
  const uint i = gl_GlobalInvocationID.x;
  if (i < n) y[i] = x[i] * x[i] - 0.5 * x[i];
  if (i < width * height) {
    const ivec2 p = ivec2(i % width, i / width);
    const vec4 t = imageLoad(picture, p);
    imageStore(luma, p, vec4(dot(t.rgb, vec3(0.299, 0.587, 0.114))));
  }
}
