// copy.comp in HLSL with a syntax error on line 13 (a ')' too many), for the message's file and line.
struct Parameters {
  uint n;
};
[[vk::push_constant]] ConstantBuffer<Parameters> params;

StructuredBuffer<float> x : register(t0);
RWStructuredBuffer<float> result : register(u1);

[numthreads(64, 1, 1)]
void main(uint3 id : SV_DispatchThreadID) {
  const uint i = id.x;
  if (i < params.n) result[i] = 2.0 * x[i]);
}
