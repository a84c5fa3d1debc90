// Second translation unit for the container reader's multi-fatbin sample:
// linked with sample.cu's object, the executable's .nv_fatbin section holds
// one fatbin per object, back to back.

__global__ void scale(float *v, float s)
{
    v[threadIdx.x] *= s;
}

void launch_scale(float *v)
{
    scale<<<1, 32>>>(v, 2.0f);
}
