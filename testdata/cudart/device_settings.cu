// device_settings.cu — device-wide settings either take effect (and are
// reported back as set) or are refused with cudaErrorInvalidValue, as
// cuda_runtime_api.h documents them; none is a success that changes
// nothing:
//  - cudaSetDeviceFlags takes cudaDeviceScheduleAuto/Spin/Yield/BlockingSync
//    (one at most), cudaDeviceMapHost, cudaDeviceLmemResizeToMax and
//    cudaDeviceSyncMemops (all inside cudaDeviceMask); cudaGetDeviceFlags
//    returns them;
//  - cudaDeviceSetCacheConfig takes a cudaFuncCache, and
//    cudaDeviceGetCacheConfig returns the preference set;
//  - cudaDeviceSetLimit/cudaDeviceGetLimit: cudaLimitDevRuntimeSyncDepth
//    "is only applicable to devices of compute capability < 9.0" and is
//    cudaErrorUnsupportedLimit on the others; cudaLimitMaxL2FetchGranularity
//    ranges "from 0B to 128B" (CUDA 13.0 refuses a larger value on an H100,
//    tools/gpu/README.md, and the limit keeps its value); the printf FIFO
//    size is kept.
#include "check.h"

int main()
{
    unsigned f = 99;
    CK(cudaSetDeviceFlags(cudaDeviceScheduleBlockingSync | cudaDeviceMapHost));
    CK(cudaGetDeviceFlags(&f));
    EXPECT(f == (cudaDeviceScheduleBlockingSync | cudaDeviceMapHost));
    CK_IS(cudaSetDeviceFlags(cudaDeviceScheduleSpin | cudaDeviceScheduleYield), cudaErrorInvalidValue);
    CK_IS(cudaSetDeviceFlags(0x100), cudaErrorInvalidValue);
    CK(cudaGetDeviceFlags(&f));
    EXPECT(f == (cudaDeviceScheduleBlockingSync | cudaDeviceMapHost));

    cudaFuncCache c;
    CK(cudaDeviceSetCacheConfig(cudaFuncCachePreferShared));
    CK(cudaDeviceGetCacheConfig(&c));
    EXPECT(c == cudaFuncCachePreferShared);
    CK_IS(cudaDeviceSetCacheConfig((cudaFuncCache)7), cudaErrorInvalidValue);
    CK(cudaDeviceGetCacheConfig(&c));
    EXPECT(c == cudaFuncCachePreferShared);

    int major = 0;
    CK(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, 0));
    size_t v = 0;
    if (major >= 9) {
        CK_IS(cudaDeviceSetLimit(cudaLimitDevRuntimeSyncDepth, 4), cudaErrorUnsupportedLimit);
        CK_IS(cudaDeviceGetLimit(&v, cudaLimitDevRuntimeSyncDepth), cudaErrorUnsupportedLimit);
    }
    CK(cudaDeviceSetLimit(cudaLimitMaxL2FetchGranularity, 128));
    CK_IS(cudaDeviceSetLimit(cudaLimitMaxL2FetchGranularity, 1000), cudaErrorInvalidValue);
    CK(cudaDeviceGetLimit(&v, cudaLimitMaxL2FetchGranularity));
    EXPECT(v == 128);
    CK(cudaDeviceSetLimit(cudaLimitMaxL2FetchGranularity, 64));
    CK(cudaDeviceGetLimit(&v, cudaLimitMaxL2FetchGranularity));
    EXPECT(v == 64);
    CK(cudaDeviceSetLimit(cudaLimitPrintfFifoSize, 4 << 20));
    CK(cudaDeviceGetLimit(&v, cudaLimitPrintfFifoSize));
    EXPECT(v == 4 << 20);
    CK_IS(cudaDeviceSetLimit((cudaLimit)42, 1), cudaErrorUnsupportedLimit);
    return finish("device_settings");
}
