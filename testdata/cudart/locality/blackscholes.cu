// blackscholes.cu — Black-Scholes prices of European call and put options
// (the CUDA samples' BlackScholes: the same polynomial approximation of
// the cumulative normal distribution, riskless rate 0.02, volatility
// 0.30, stock prices in [5, 30], strikes in [1, 100], expiries in
// [0.25, 10] years), each thread pricing OPT_PER_THREAD options in a
// grid-stride loop over 256-thread blocks.
//
// Inter-TB locality: none; every block reads the five words of its own
// options and writes two (the "none" class of Tripathy's thesis, Ch. 3).
//
// Usage: blackscholes [options]   (default 131072: 128 blocks of 4 options
//                                  a thread; 1024 to 16M)
#include "../check.h"
#include "locality.h"

#include <algorithm>
#include <cmath>
#include <vector>

#define BLOCK 256
#define OPT_PER_THREAD 4

// Polynomial approximation of the cumulative normal distribution
// (Abramowitz and Stegun 26.2.17).
__device__ inline float cnd(float d)
{
    const float A1 = 0.31938153f, A2 = -0.356563782f, A3 = 1.781477937f, A4 = -1.821255978f,
                A5 = 1.330274429f, RSQRT2PI = 0.39894228040143267793994605993438f;
    float K = 1.0f / (1.0f + 0.2316419f * fabsf(d));
    float c = RSQRT2PI * expf(-0.5f * d * d) * (K * (A1 + K * (A2 + K * (A3 + K * (A4 + K * A5)))));
    if (d > 0)
        c = 1.0f - c;
    return c;
}

__global__ void black_scholes(float *call, float *put, const float *S, const float *X, const float *T, float R,
                              float V, int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        float s = S[i], x = X[i], t = T[i];
        float sqrtT = sqrtf(t);
        float d1 = (logf(s / x) + (R + 0.5f * V * V) * t) / (V * sqrtT);
        float d2 = d1 - V * sqrtT;
        float cnd1 = cnd(d1), cnd2 = cnd(d2);
        float expRT = expf(-R * t);
        call[i] = s * cnd1 - x * expRT * cnd2;
        put[i] = x * expRT * (1.0f - cnd2) - s * (1.0f - cnd1);
    }
}

// The same in double on the host.
static double cnd_host(double d)
{
    const double A1 = 0.31938153, A2 = -0.356563782, A3 = 1.781477937, A4 = -1.821255978, A5 = 1.330274429,
                 RSQRT2PI = 0.39894228040143267793994605993438;
    double K = 1.0 / (1.0 + 0.2316419 * std::fabs(d));
    double c = RSQRT2PI * std::exp(-0.5 * d * d) * (K * (A1 + K * (A2 + K * (A3 + K * (A4 + K * A5)))));
    return d > 0 ? 1.0 - c : c;
}

int main(int argc, char **argv)
{
    int n = arg_int(argc, argv, 1, 131072, 1024, 1 << 24, 1, "[options: 1024 to 16777216, default 131072]");
    const float R = 0.02f, V = 0.30f;

    Rng rng(0xb5ull);
    std::vector<float> S(n), X(n), T(n), call(n), put(n);
    for (int i = 0; i < n; i++) {
        S[i] = rng.range(5.0f, 30.0f);
        X[i] = rng.range(1.0f, 100.0f);
        T[i] = rng.range(0.25f, 10.0f);
    }

    float *d_S, *d_X, *d_T, *d_call, *d_put;
    CK(cudaMalloc(&d_S, n * sizeof(float)));
    CK(cudaMalloc(&d_X, n * sizeof(float)));
    CK(cudaMalloc(&d_T, n * sizeof(float)));
    CK(cudaMalloc(&d_call, n * sizeof(float)));
    CK(cudaMalloc(&d_put, n * sizeof(float)));
    CK(cudaMemcpy(d_S, S.data(), n * sizeof(float), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(d_X, X.data(), n * sizeof(float), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(d_T, T.data(), n * sizeof(float), cudaMemcpyHostToDevice));

    int grid = (n + BLOCK * OPT_PER_THREAD - 1) / (BLOCK * OPT_PER_THREAD);
    black_scholes<<<grid, BLOCK>>>(d_call, d_put, d_S, d_X, d_T, R, V, n);
    CK(cudaGetLastError());
    CK(cudaMemcpy(call.data(), d_call, n * sizeof(float), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(put.data(), d_put, n * sizeof(float), cudaMemcpyDeviceToHost));

    // prices against the double computation, relative to the stock price
    // and the strike: the device's float logarithm, exponentials and
    // differences of nearly equal terms lose some bits
    Check check_call("call", 1e-5), check_put("put", 1e-5);
    double sum_call = 0, sum_put = 0;
    for (int i = 0; i < n; i++) {
        double s = S[i], x = X[i], t = T[i];
        double sqrtT = std::sqrt(t);
        double d1 = (std::log(s / x) + ((double)R + 0.5 * (double)V * V) * t) / (V * sqrtT);
        double d2 = d1 - V * sqrtT;
        double cnd1 = cnd_host(d1), cnd2 = cnd_host(d2);
        double expRT = std::exp(-(double)R * t);
        double c = s * cnd1 - x * expRT * cnd2;
        double p = x * expRT * (1.0 - cnd2) - s * (1.0 - cnd1);
        check_call(i, 0, call[i], c, s + x);
        check_put(i, 0, put[i], p, s + x);
        sum_call += c;
        sum_put += p;
    }
    EXPECT(check_call.wrong == 0);
    EXPECT(check_put.wrong == 0);
    printf("blackscholes: %d options, grid %d of %d threads (%d options each), mean call %.4f put %.4f, max error "
           "%.2e of S + X\n",
           n, grid, BLOCK, OPT_PER_THREAD, sum_call / n, sum_put / n,
           std::max(check_call.max_err, check_put.max_err));
    return finish("blackscholes");
}
