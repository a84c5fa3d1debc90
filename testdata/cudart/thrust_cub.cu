// thrust_cub.cu — Thrust algorithms and CUB device-wide primitives on a
// few thousand elements, each result checked against the same computation
// done on the host with the C++ standard library:
//   thrust::sort (radix sort of unsigned keys; merge sort with a user
//   comparator), thrust::sort_by_key, thrust::reduce, thrust::transform
//   (saxpy functor), thrust::inclusive_scan and thrust::exclusive_scan;
//   cub::DeviceRadixSort::SortPairs (with the temporary-storage query),
//   cub::DeviceReduce::Sum and Max, cub::DeviceScan::ExclusiveSum and
//   cub::DeviceSegmentedReduce::Sum over offsets in device memory.
// (Each further algorithm adds kernels for 32- and 64-bit offsets and
// seconds of nvcc time to the test, so the set is kept to distinct ones.)
#include "check.h"

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <vector>

#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_reduce.cuh>
#include <cub/device/device_scan.cuh>
#include <cub/device/device_segmented_reduce.cuh>
#include <thrust/device_vector.h>
#include <thrust/host_vector.h>
#include <thrust/reduce.h>
#include <thrust/scan.h>
#include <thrust/sort.h>
#include <thrust/transform.h>

// y = a x + y.
struct Saxpy {
    float a;
    __host__ __device__ float operator()(float x, float y) const { return a * x + y; }
};

// Orders ints by absolute value, then by value (a comparator that is not
// a plain less or greater: Thrust sorts with it by merge sort).
struct AbsLess {
    __host__ __device__ bool operator()(int a, int b) const
    {
        int x = a < 0 ? -a : a, y = b < 0 ? -b : b;
        return x != y ? x < y : a < b;
    }
};

// Deterministic pseudo-random 32-bit values.
static uint32_t next(uint32_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 17;
    *s ^= *s << 5;
    return *s;
}

// Element-wise equality of a device result and the host reference.
template <typename T> static bool same(const thrust::device_vector<T> &d, const std::vector<T> &h)
{
    thrust::host_vector<T> got = d;
    return got.size() == h.size() && std::equal(got.begin(), got.end(), h.begin());
}

static void thrust_algorithms(int n)
{
    uint32_t s = 12345;
    std::vector<unsigned> keys(n);
    std::vector<int> ints(n), vals(n);
    std::vector<float> xs(n), ys(n);
    for (int i = 0; i < n; i++) {
        keys[i] = next(&s);
        ints[i] = (int)(next(&s) % 2001) - 1000;
        vals[i] = i;
        xs[i] = (float)(int)(next(&s) % 1000) * 0.25f;
        ys[i] = (float)(int)(next(&s) % 1000) * 0.5f;
    }

    // thrust::sort of unsigned keys (radix sort)
    thrust::device_vector<unsigned> dkeys(keys.begin(), keys.end());
    thrust::sort(dkeys.begin(), dkeys.end());
    std::vector<unsigned> want_keys = keys;
    std::sort(want_keys.begin(), want_keys.end());
    EXPECT(same(dkeys, want_keys));

    // thrust::sort with a comparator (merge sort)
    thrust::device_vector<int> dints(ints.begin(), ints.end());
    thrust::sort(dints.begin(), dints.end(), AbsLess());
    std::vector<int> want_abs = ints;
    std::sort(want_abs.begin(), want_abs.end(), AbsLess());
    EXPECT(same(dints, want_abs));

    // thrust::sort_by_key: keys in 0..99 so that many are equal; radix
    // sort is stable, so each key's values stay in input order
    std::vector<unsigned> small(n);
    for (int i = 0; i < n; i++)
        small[i] = keys[i] % 100;
    thrust::device_vector<unsigned> dsmall(small.begin(), small.end());
    thrust::device_vector<int> dvals(vals.begin(), vals.end());
    thrust::sort_by_key(dsmall.begin(), dsmall.end(), dvals.begin());
    std::vector<int> want_vals = vals;
    std::stable_sort(want_vals.begin(), want_vals.end(),
                     [&](int a, int b) { return small[a] < small[b]; });
    std::vector<unsigned> want_small(n);
    for (int i = 0; i < n; i++)
        want_small[i] = small[want_vals[i]];
    EXPECT(same(dsmall, want_small));
    EXPECT(same(dvals, want_vals));

    // thrust::reduce
    thrust::device_vector<int> dorig(ints.begin(), ints.end());
    EXPECT(thrust::reduce(dorig.begin(), dorig.end()) == std::accumulate(ints.begin(), ints.end(), 0));
    // thrust::transform: saxpy (exact: quarter and half integers below 2^11)
    thrust::device_vector<float> dx(xs.begin(), xs.end()), dy(ys.begin(), ys.end());
    thrust::transform(dx.begin(), dx.end(), dy.begin(), dy.begin(), Saxpy{3.0f});
    std::vector<float> want_y(n);
    for (int i = 0; i < n; i++)
        want_y[i] = 3.0f * xs[i] + ys[i];
    EXPECT(same(dy, want_y));

    // thrust::inclusive_scan and exclusive_scan
    thrust::device_vector<int> dscan(n);
    thrust::inclusive_scan(dorig.begin(), dorig.end(), dscan.begin());
    std::vector<int> want_scan(n);
    std::partial_sum(ints.begin(), ints.end(), want_scan.begin());
    EXPECT(same(dscan, want_scan));
    thrust::exclusive_scan(dorig.begin(), dorig.end(), dscan.begin(), 7);
    int run = 7;
    for (int i = 0; i < n; i++) {
        want_scan[i] = run;
        run += ints[i];
    }
    EXPECT(same(dscan, want_scan));

}

static void cub_device(int n)
{
    uint32_t s = 777;
    std::vector<unsigned> keys(n);
    std::vector<int> vals(n), ints(n);
    for (int i = 0; i < n; i++) {
        keys[i] = next(&s) >> (i % 3 == 0 ? 20 : 0); // some small keys, many equal ones
        vals[i] = i;
        ints[i] = (int)(next(&s) % 20001) - 10000;
    }
    unsigned *kin, *kout;
    int *vin, *vout, *iin, *iout;
    CK(cudaMalloc(&kin, n * sizeof(unsigned)));
    CK(cudaMalloc(&kout, n * sizeof(unsigned)));
    CK(cudaMalloc(&vin, n * sizeof(int)));
    CK(cudaMalloc(&vout, n * sizeof(int)));
    CK(cudaMalloc(&iin, n * sizeof(int)));
    CK(cudaMalloc(&iout, (n + 1) * sizeof(int)));
    CK(cudaMemcpy(kin, keys.data(), n * sizeof(unsigned), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(vin, vals.data(), n * sizeof(int), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(iin, ints.data(), n * sizeof(int), cudaMemcpyHostToDevice));

    // one temporary buffer, as large as the largest query asks
    size_t bytes = 0, need = 0;
    CK(cub::DeviceRadixSort::SortPairs(nullptr, need, kin, kout, vin, vout, n));
    bytes = std::max(bytes, need);
    CK(cub::DeviceReduce::Sum(nullptr, need, iin, iout, n));
    bytes = std::max(bytes, need);
    CK(cub::DeviceReduce::Max(nullptr, need, iin, iout, n));
    bytes = std::max(bytes, need);
    CK(cub::DeviceScan::ExclusiveSum(nullptr, need, iin, iout, n));
    bytes = std::max(bytes, need);
    void *tmp;
    CK(cudaMalloc(&tmp, bytes));

    // SortPairs: stable by key
    need = bytes;
    CK(cub::DeviceRadixSort::SortPairs(tmp, need, kin, kout, vin, vout, n));
    std::vector<int> order = vals;
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return keys[a] < keys[b]; });
    std::vector<unsigned> got_k(n);
    std::vector<int> got_v(n);
    CK(cudaMemcpy(got_k.data(), kout, n * sizeof(unsigned), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(got_v.data(), vout, n * sizeof(int), cudaMemcpyDeviceToHost));
    bool ok = true;
    for (int i = 0; i < n; i++)
        ok = ok && got_v[i] == order[i] && got_k[i] == keys[order[i]];
    EXPECT(ok);

    // Reduce: sum and max
    int got;
    need = bytes;
    CK(cub::DeviceReduce::Sum(tmp, need, iin, iout, n));
    CK(cudaMemcpy(&got, iout, sizeof got, cudaMemcpyDeviceToHost));
    EXPECT(got == std::accumulate(ints.begin(), ints.end(), 0));
    need = bytes;
    CK(cub::DeviceReduce::Max(tmp, need, iin, iout, n));
    CK(cudaMemcpy(&got, iout, sizeof got, cudaMemcpyDeviceToHost));
    EXPECT(got == *std::max_element(ints.begin(), ints.end()));

    // ExclusiveSum
    need = bytes;
    CK(cub::DeviceScan::ExclusiveSum(tmp, need, iin, iout, n));
    CK(cudaMemcpy(got_v.data(), iout, n * sizeof(int), cudaMemcpyDeviceToHost));
    std::vector<int> want(n);
    std::exclusive_scan(ints.begin(), ints.end(), want.begin(), 0);
    EXPECT(got_v == want);

    // Segmented sums over segments of lengths 0, 1, 2, ... (offsets in
    // device memory)
    std::vector<int> offsets{0};
    for (int len = 0; offsets.back() + len <= n; len++)
        offsets.push_back(offsets.back() + len);
    int nseg = (int)offsets.size() - 1, *doff, *dsum;
    CK(cudaMalloc(&doff, offsets.size() * sizeof(int)));
    CK(cudaMalloc(&dsum, nseg * sizeof(int)));
    CK(cudaMemcpy(doff, offsets.data(), offsets.size() * sizeof(int), cudaMemcpyHostToDevice));
    void *stmp = nullptr;
    size_t sbytes = 0;
    CK(cub::DeviceSegmentedReduce::Sum(stmp, sbytes, iin, dsum, nseg, doff, doff + 1));
    CK(cudaMalloc(&stmp, sbytes));
    CK(cub::DeviceSegmentedReduce::Sum(stmp, sbytes, iin, dsum, nseg, doff, doff + 1));
    std::vector<int> seg(nseg);
    CK(cudaMemcpy(seg.data(), dsum, nseg * sizeof(int), cudaMemcpyDeviceToHost));
    ok = true;
    for (int g = 0; g < nseg; g++)
        ok = ok && seg[g] == std::accumulate(ints.begin() + offsets[g], ints.begin() + offsets[g + 1], 0);
    EXPECT(ok);

    for (void *p : {(void *)kin, (void *)kout, (void *)vin, (void *)vout, (void *)iin, (void *)iout,
                    tmp, stmp, (void *)doff, (void *)dsum})
        CK(cudaFree(p));
}

int main()
{
    thrust_algorithms(5000);
    cub_device(4000);
    return finish("thrust_cub");
}
