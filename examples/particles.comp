// One explicit Euler step of free-falling particles, updated in place: an array of structs (read
// and written whole) and the step's parameters in a uniform buffer.
#version 450
layout(local_size_x_id = 0, local_size_y_id = 1) in;

// std430: pos at 0, mass at 12 (a vec3 leaves room for one scalar), vel at 16, age at 28; 32 bytes.
struct Particle {
  vec3 pos;
  float mass;
  vec3 vel;
  float age;
};

layout(std430, binding = 0) buffer Particles { Particle particles[]; };

layout(std140, binding = 1) uniform Params {
  float deltaT;
  uint particleCount;
  vec4 gravity;
} params;

void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i >= params.particleCount) return;
  Particle p = particles[i];
  p.vel += params.gravity.xyz * params.deltaT;
  p.pos += p.vel * params.deltaT;
  p.age += params.deltaT;
  particles[i] = p;
}
