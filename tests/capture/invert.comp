#version 450
// The capture demo's third kernel: inverts an rgba8 storage image in place (each channel v
// becomes 1 - v). A literal 8x8 local size. Binding 0: the image, read and written.
layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = 0, rgba8) uniform image2D picture;

void main() {
  ivec2 p = ivec2(gl_GlobalInvocationID.xy);
  if (all(lessThan(p, imageSize(picture)))) imageStore(picture, p, vec4(1.0) - imageLoad(picture, p));
}
