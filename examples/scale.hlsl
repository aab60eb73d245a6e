// out = a * x over n float4s, in HLSL: csbench compiles a .hlsl source through shaderc's HLSL
// front end. [numthreads] is a literal local size, so the manifest lists no workgroups.
// A register's number is the binding (t0: x, read only; u1: out), its space the set (0 here).
// Push constants: n (the float4s), a.
struct Parameters {
  uint n;
  float a;
};
[[vk::push_constant]] ConstantBuffer<Parameters> params;

StructuredBuffer<float4> x : register(t0);
RWStructuredBuffer<float4> result : register(u1);

[numthreads(64, 1, 1)]
void main(uint3 id : SV_DispatchThreadID) {
  if (id.x < params.n) result[id.x] = params.a * x[id.x];
}
