// backprop.cu — one training step of a two-layer perceptron (N_IN inputs,
// HIDDEN = 16 hidden units, one output unit, logistic activations), split
// between device and host as in the usual GPU back-propagation benchmark:
//  * layer_forward: a 16 x 16 block takes 16 inputs; its threads multiply
//    them by their weights into shared memory and add the 16 products of
//    each hidden unit by a tree reduction, giving one partial sum per block
//    and hidden unit;
//  * the host adds the partial sums, applies the activations, the output
//    layer and the error terms (deltas) of both layers;
//  * adjust_weights: every input-to-hidden weight moves by
//    ETA * delta * input + MOMENTUM * previous change.
// Checks: the partial sums equal the CPU's exactly (each product is rounded
// and stored before the sums, which the CPU adds in the same tree order);
// the adjusted weights and changes within a relative 1e-5 of the CPU's,
// since nvcc may fuse the multiply-adds of the update into fma: each value
// then differs by at most a few roundings (2^-24 relative each) of the
// magnitudes summed, while a wrong delta, input or weight index is off by a
// whole term.
//
// Divergence: one lane in 16 loads the block's input (`tx == 0`); the
// reduction keeps the lanes with `ty % (2 * s) == 0`, so each warp (two
// rows of 16 lanes) runs its first step with half its lanes and then idles
// or not depending on its rows; only row 0 writes the partial sums, and
// only the first row of block 0 adjusts the bias weights.
//
// Default size: N_IN = 4096 inputs (256 blocks of 16 x 16 threads, two
// launches); argv[1] = k multiplies N_IN by k.
#include "../check.h"
#include "divergent.h"

#include <cmath>
#include <vector>

#define HIDDEN 16
#define ETA 0.3f
#define MOMENTUM 0.3f

// Partial sums of the hidden units over the block's 16 inputs:
// partial[blockIdx.y][tx] = sum over ty of weight[row(ty)][tx] * input[row(ty)].
__global__ void layer_forward(const float *input, const float *weight, float *partial)
{
    __shared__ float input_tile[HIDDEN];
    __shared__ float product[HIDDEN][HIDDEN];
    int tx = threadIdx.x, ty = threadIdx.y, row = blockIdx.y * HIDDEN + ty;
    if (tx == 0)
        input_tile[ty] = input[row];
    __syncthreads();
    product[ty][tx] = weight[row * HIDDEN + tx] * input_tile[ty];
    __syncthreads();
    for (int s = 1; s < HIDDEN; s *= 2) {
        if (ty % (2 * s) == 0)
            product[ty][tx] += product[ty + s][tx];
        __syncthreads();
    }
    if (ty == 0)
        partial[blockIdx.y * HIDDEN + tx] = product[0][tx];
}

// Gradient step with momentum on the input-to-hidden weights (and, by the
// first row of block 0, on the hidden units' bias weights, whose input is 1).
__global__ void adjust_weights(const float *input, const float *delta, float *weight, float *change,
                               float *bias, float *bias_change)
{
    int tx = threadIdx.x, ty = threadIdx.y, row = blockIdx.y * HIDDEN + ty, k = row * HIDDEN + tx;
    float step = ETA * delta[tx] * input[row] + MOMENTUM * change[k];
    weight[k] += step;
    change[k] = step;
    if (ty == 0 && blockIdx.y == 0) {
        float bias_step = ETA * delta[tx] + MOMENTUM * bias_change[tx];
        bias[tx] += bias_step;
        bias_change[tx] = bias_step;
    }
}

// The logistic function.
static float squash(float x) { return 1.0f / (1.0f + expf(-x)); }

// True when got is within a relative 1e-5 of the magnitude scale.
static bool close_to(float got, float want, float scale) { return fabsf(got - want) <= 1e-5f * scale; }

int main(int argc, char **argv)
{
    int scale = size_scale(argc, argv, 256);
    const int n_in = 4096 * scale, blocks = n_in / HIDDEN, n_w = n_in * HIDDEN;

    uint64_t rng = 0xbac4ull;
    std::vector<float> input(n_in), weight(n_w), change(n_w, 0.0f), bias(HIDDEN), bias_change(HIDDEN, 0.0f);
    std::vector<float> out_weight(HIDDEN);
    for (auto &x : input)
        x = rng_unit(&rng);
    for (auto &w : weight)
        w = (rng_unit(&rng) - 0.5f) * 0.02f;
    for (int j = 0; j < HIDDEN; j++) {
        bias[j] = (rng_unit(&rng) - 0.5f) * 0.2f;
        out_weight[j] = rng_unit(&rng) - 0.5f;
    }
    const float out_bias = 0.1f, target = 0.9f;

    float *d_input, *d_weight, *d_change, *d_partial, *d_delta, *d_bias, *d_bias_change;
    CK(cudaMalloc(&d_input, n_in * sizeof(float)));
    CK(cudaMalloc(&d_weight, n_w * sizeof(float)));
    CK(cudaMalloc(&d_change, n_w * sizeof(float)));
    CK(cudaMalloc(&d_partial, blocks * HIDDEN * sizeof(float)));
    CK(cudaMalloc(&d_delta, HIDDEN * sizeof(float)));
    CK(cudaMalloc(&d_bias, HIDDEN * sizeof(float)));
    CK(cudaMalloc(&d_bias_change, HIDDEN * sizeof(float)));
    CK(cudaMemcpy(d_input, input.data(), n_in * sizeof(float), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(d_weight, weight.data(), n_w * sizeof(float), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(d_change, change.data(), n_w * sizeof(float), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(d_bias, bias.data(), HIDDEN * sizeof(float), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(d_bias_change, bias_change.data(), HIDDEN * sizeof(float), cudaMemcpyHostToDevice));

    dim3 block(HIDDEN, HIDDEN), grid(1, blocks);
    layer_forward<<<grid, block>>>(d_input, d_weight, d_partial);
    CK(cudaGetLastError());
    std::vector<float> partial(blocks * HIDDEN);
    CK(cudaMemcpy(partial.data(), d_partial, partial.size() * sizeof(float), cudaMemcpyDeviceToHost));

    // CPU partial sums in the kernel's tree order.
    int wrong = 0;
    for (int b = 0; b < blocks; b++)
        for (int j = 0; j < HIDDEN; j++) {
            float product[HIDDEN];
            for (int r = 0; r < HIDDEN; r++) {
                volatile float p = weight[(b * HIDDEN + r) * HIDDEN + j] * input[b * HIDDEN + r];
                product[r] = p;
            }
            for (int s = 1; s < HIDDEN; s *= 2)
                for (int r = 0; r < HIDDEN; r += 2 * s) {
                    volatile float sum = product[r] + product[r + s];
                    product[r] = sum;
                }
            if (partial[b * HIDDEN + j] != product[0] && wrong++ < 5)
                fprintf(stderr, "partial sum %d of block %d: %.9g, expected %.9g\n", j, b,
                        partial[b * HIDDEN + j], product[0]);
        }
    EXPECT(wrong == 0);

    // Host part of the step: hidden and output activations, deltas.
    float hidden[HIDDEN], delta[HIDDEN], net_out = out_bias;
    for (int j = 0; j < HIDDEN; j++) {
        float net = bias[j];
        for (int b = 0; b < blocks; b++)
            net += partial[b * HIDDEN + j];
        hidden[j] = squash(net);
        net_out += hidden[j] * out_weight[j];
    }
    float out = squash(net_out), out_delta = out * (1.0f - out) * (target - out);
    for (int j = 0; j < HIDDEN; j++)
        delta[j] = hidden[j] * (1.0f - hidden[j]) * out_delta * out_weight[j];
    CK(cudaMemcpy(d_delta, delta, HIDDEN * sizeof(float), cudaMemcpyHostToDevice));

    adjust_weights<<<grid, block>>>(d_input, d_delta, d_weight, d_change, d_bias, d_bias_change);
    CK(cudaGetLastError());
    std::vector<float> got_weight(n_w), got_change(n_w), got_bias(HIDDEN), got_bias_change(HIDDEN);
    CK(cudaMemcpy(got_weight.data(), d_weight, n_w * sizeof(float), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(got_change.data(), d_change, n_w * sizeof(float), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(got_bias.data(), d_bias, HIDDEN * sizeof(float), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(got_bias_change.data(), d_bias_change, HIDDEN * sizeof(float), cudaMemcpyDeviceToHost));

    // CPU update; the scale of a value is the sum of the magnitudes it adds.
    wrong = 0;
    for (int k = 0; k < n_w; k++) {
        float gradient = ETA * delta[k % HIDDEN] * input[k / HIDDEN], momentum = MOMENTUM * change[k];
        float step = gradient + momentum, w = weight[k] + step;
        float step_scale = fabsf(gradient) + fabsf(momentum), w_scale = fabsf(weight[k]) + step_scale;
        if ((!close_to(got_change[k], step, step_scale) || !close_to(got_weight[k], w, w_scale)) && wrong++ < 5)
            fprintf(stderr, "weight %d: %.9g (change %.9g), expected %.9g (%.9g)\n", k, got_weight[k],
                    got_change[k], w, step);
    }
    for (int j = 0; j < HIDDEN; j++) {
        float gradient = ETA * delta[j], momentum = MOMENTUM * bias_change[j];
        float step = gradient + momentum, b = bias[j] + step, step_scale = fabsf(gradient) + fabsf(momentum);
        if ((!close_to(got_bias_change[j], step, step_scale) ||
             !close_to(got_bias[j], b, fabsf(bias[j]) + step_scale)) && wrong++ < 5)
            fprintf(stderr, "bias %d: %.9g, expected %.9g\n", j, got_bias[j], b);
    }
    EXPECT(wrong == 0);
    printf("backprop: %d inputs, %d hidden units, output %.6f\n", n_in, HIDDEN, out);
    return finish("backprop");
}
