// textures.cu: texture and surface objects.
// Covers cudaTextureObject_t fetches (tex1Dfetch on int/float4, tex1D,
// tex2D, tex3D, tex2DLayered, tex2DLod, tex2DGrad, tex2Dgather,
// texCubemap), i.e. tex.1d/2d/3d/a2d/cube and tld4 with .v4 results, and
// cudaSurfaceObject_t reads/writes (surf1Dread, surf2Dread/surf2Dwrite,
// surf3Dwrite, surf2DLayeredwrite) with boundary modes (suld/sust).

__global__ void tex_fetch_1d(cudaTextureObject_t ti, cudaTextureObject_t tf4,
                             cudaTextureObject_t tf, int *iout, float4 *fout, float *out,
                             int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    iout[i] = tex1Dfetch<int>(ti, i) + tex1Dfetch<int>(ti, n - 1 - i);
    fout[i] = tex1Dfetch<float4>(tf4, i);
    out[i] = tex1D<float>(tf, (i + 0.5f) / n);
}

__global__ void tex_sample_2d(cudaTextureObject_t t2, cudaTextureObject_t t3,
                              cudaTextureObject_t tl, float *out, int w, int h)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= w || y >= h)
        return;
    float u = (x + 0.5f) / w, v = (y + 0.5f) / h;
    float r = tex2D<float>(t2, u, v);
    r += tex2DLod<float>(t2, u, v, 1.5f);
    r += tex2DGrad<float>(t2, u, v, make_float2(0.01f, 0.0f), make_float2(0.0f, 0.01f));
    float4 g = tex2Dgather<float4>(t2, u, v, 0);
    r += g.x + g.y + g.z + g.w;
    r += tex3D<float>(t3, u, v, 0.5f);
    r += tex2DLayered<float>(tl, u, v, y & 3);
    out[y * w + x] = r;
}

__global__ void tex_cubemap(cudaTextureObject_t tc, float4 *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float a = i * 0.01f;
    out[i] = texCubemap<float4>(tc, __cosf(a), __sinf(a), 0.5f);
}

__global__ void surf_copy(cudaSurfaceObject_t src, cudaSurfaceObject_t dst,
                          cudaSurfaceObject_t s1, cudaSurfaceObject_t s3,
                          cudaSurfaceObject_t sl, int w, int h)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= w || y >= h)
        return;
    float4 v = surf2Dread<float4>(src, x * sizeof(float4), y);
    float e = surf1Dread<float>(s1, x * 4, cudaBoundaryModeClamp);
    v.x += e;
    surf2Dwrite(v, dst, x * sizeof(float4), y);
    surf2Dwrite(make_uchar4(x, y, 0, 255), dst, x * 4, h - 1 - y, cudaBoundaryModeZero);
    surf3Dwrite(v.y, s3, x * 4, y, 1);
    surf2DLayeredwrite(v.z, sl, x * 4, y, 2, cudaBoundaryModeTrap);
}
