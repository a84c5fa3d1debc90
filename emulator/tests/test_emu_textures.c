/* test_emu_textures.c — texture and surface objects: textures.cu's kernels
 * (tex1Dfetch on linear memory, tex1D, tex2D, tex2DLod, tex2DGrad,
 * tex2Dgather, tex3D, tex2DLayered, texCubemap, surface reads and writes
 * with clamp, zero and trap boundaries) on sm_75, sm_80, sm_90 (-O3) and
 * sm_80 (-G), and hand-written tex.1d lookups under every address mode
 * with point and linear filtering, all against references written here
 * from the CUDA Programming Guide's texture fetching formulas; plus the
 * faults of bad handles and out-of-bounds trapping surface accesses. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "emulator/tests/emu_test.h"
#include "emulator/tests/corpus_test.h"

/* A texture (or surface) over a new buffer holding n bytes of data (zeros
 * when data is NULL); *buf (if given) receives the buffer's address. */
static uint64_t make_object(emu *e, sim_texture_desc t, const void *data, size_t n, bool surface, uint64_t *buf)
{
    t.data = emu_buf(e, data, n);
    if (buf)
        *buf = t.data;
    uint64_t h;
    int rc = surface ? sim_surface_create(e->d, &t, &h, e->err, sizeof e->err)
                     : sim_texture_create(e->d, &t, &h, e->err, sizeof e->err);
    if (rc != 0)
        fail_msg("creating an object: %s", e->err);
    return h;
}

/* A float texture description: w x h x d texels of c channels. */
static sim_texture_desc float_desc(uint32_t w, uint32_t h, uint32_t d, uint8_t c)
{
    sim_texture_desc t = {.width = w, .height = h, .depth = d, .channels = c, .channel_type = PTX_TYPE_F32,
                          .normalized_coords = true, .address = {SIM_ADDRESS_CLAMP, SIM_ADDRESS_CLAMP, SIM_ADDRESS_CLAMP}};
    return t;
}

/* The guide's 1D lookup of n texels T at coordinate u: nearest texel
 * floor(x), or (1 - a) T[i] + a T[i+1] with i = floor(x - 0.5) and a its
 * fraction in 8-bit fixed point; x = u * n for normalized coordinates,
 * after wrapping (u - floor(u)) or mirroring; texel indices then clamp, or
 * read the border color outside. */
static float ref_tex1d(const float *T, int n, double u, bool normalized, bool linear, sim_address_mode m, float border)
{
    if (normalized && m == SIM_ADDRESS_WRAP)
        u -= floor(u);
    if (normalized && m == SIM_ADDRESS_MIRROR) {
        double f = fmod(u, 2.0);
        if (f < 0)
            f += 2.0;
        u = f > 1.0 ? 2.0 - f : f;
    }
    double x = normalized ? u * n : u;
    double taps[2];
    long idx[2];
    double a = 0;
    if (linear) {
        double xb = x - 0.5;
        idx[0] = (long)floor(xb);
        a = nearbyint((xb - floor(xb)) * 256) / 256;
    } else {
        idx[0] = (long)floor(x);
    }
    idx[1] = idx[0] + 1;
    for (int k = 0; k < 2; k++) {
        long i = idx[k];
        if (m == SIM_ADDRESS_BORDER && (i < 0 || i >= n)) {
            taps[k] = border;
            continue;
        }
        if (m == SIM_ADDRESS_WRAP && normalized)
            i = ((i % n) + n) % n;
        else
            i = i < 0 ? 0 : i >= n ? n - 1 : i;
        taps[k] = T[i];
    }
    return linear ? (float)((1 - a) * taps[0] + a * taps[1]) : (float)taps[0];
}

/* tex.1d.v4.f32.f32 at coordinates from memory under every address mode,
 * point and linear, normalized and not. */
static void test_tex1d_modes(void **state)
{
    (void)state;
    const char *ptx = PTX_TEST_HEADER
        ".visible .entry k(.param .u64 tex, .param .u64 in, .param .u64 out)\n{\n"
        ".reg .b32 %r<3>;\n.reg .b64 %rd<8>;\n.reg .f32 %f<6>;\n"
        "ld.param.u64 %rd1, [tex];\nld.param.u64 %rd2, [in];\nld.param.u64 %rd3, [out];\n"
        "mov.u32 %r1, %tid.x;\nmul.wide.u32 %rd4, %r1, 4;\nadd.u64 %rd5, %rd2, %rd4;\nadd.u64 %rd6, %rd3, %rd4;\n"
        "ld.global.f32 %f1, [%rd5];\ntex.1d.v4.f32.f32 {%f2, %f3, %f4, %f5}, [%rd1, {%f1}];\n"
        "st.global.f32 [%rd6], %f2;\nret;\n}\n";
    enum { N = 8, NC = 128 };
    float T[N], coords[NC], got[NC];
    for (int i = 0; i < N; i++)
        T[i] = (float)(i * i) - 3.5f;
    uint64_t seed = 77;
    for (int i = 0; i < NC; i++)
        coords[i] = i < 16 ? (float)(i - 4) * 0.25f : (float)((int64_t)(emu_rand(&seed) % 4000) - 1500) / 1000.0f;
    for (int mode = SIM_ADDRESS_WRAP; mode <= SIM_ADDRESS_BORDER; mode++)
        for (int linear = 0; linear < 2; linear++)
            for (int norm = 0; norm < 2; norm++) {
                emu e;
                emu_open_module(&e, ptx_test_parse(ptx));
                sim_texture_desc t = float_desc(N, 1, 1, 1);
                t.address[0] = (uint8_t)mode;
                t.linear_filter = linear;
                t.normalized_coords = norm;
                t.border[0] = 42.0f;
                uint64_t h = make_object(&e, t, T, sizeof T, false, NULL);
                float scaled[NC];
                for (int i = 0; i < NC; i++)
                    scaled[i] = norm ? coords[i] : coords[i] * N;
                uint64_t din = emu_buf(&e, scaled, sizeof scaled), dout = emu_buf(&e, NULL, sizeof got);
                const void *args[] = {&h, &din, &dout};
                emu_run(&e, "k", emu_cfg(1, 1, NC, 1), args);
                emu_read(&e, got, dout, sizeof got);
                for (int i = 0; i < NC; i++) {
                    float want = ref_tex1d(T, N, scaled[i], norm, linear, (sim_address_mode)mode, 42.0f);
                    if (got[i] != want)
                        fail_msg("mode %d linear %d normalized %d at %g: %.9g, want %.9g", mode, linear, norm,
                                 (double)scaled[i], (double)got[i], (double)want);
                }
                emu_close(&e);
            }
}

/* tex_fetch_1d: integer and float4 tex1Dfetch on linear memory (outside
 * reads zero) and tex1D with linear filtering at texel centres. */
static void check_fetch_1d(emu *e, size_t a)
{
    enum { N = 100 };
    int32_t ti[N], iout[N];
    float tf4[4 * N], fout[4 * N], tf[N], out[N];
    for (int i = 0; i < N; i++) {
        ti[i] = i * 37 - 1000;
        tf[i] = (float)i * 0.75f - 20.0f;
        for (int k = 0; k < 4; k++)
            tf4[4 * i + k] = (float)(i * 4 + k) * 0.5f;
    }
    sim_texture_desc lin = {.width = N, .channels = 1, .channel_type = PTX_TYPE_S32, .linear_memory = true};
    uint64_t hi = make_object(e, lin, ti, sizeof ti, false, NULL);
    lin.channels = 4;
    lin.channel_type = PTX_TYPE_F32;
    uint64_t hf4 = make_object(e, lin, tf4, sizeof tf4, false, NULL);
    sim_texture_desc t = float_desc(N, 1, 1, 1);
    t.linear_filter = true;
    uint64_t hf = make_object(e, t, tf, sizeof tf, false, NULL);
    uint64_t di = emu_buf(e, NULL, sizeof iout), df4 = emu_buf(e, NULL, sizeof fout), df = emu_buf(e, NULL, sizeof out);
    int n = N;
    const void *args[] = {&hi, &hf4, &hf, &di, &df4, &df, &n};
    emu_run(e, "_Z12tex_fetch_1dyyyPiP6float4Pfi", emu_cfg(2, 1, 64, 1), args);
    emu_read(e, iout, di, sizeof iout);
    emu_read(e, fout, df4, sizeof fout);
    emu_read(e, out, df, sizeof out);
    for (int i = 0; i < N; i++) {
        assert_int_equal(iout[i], ti[i] + ti[N - 1 - i]);
        for (int k = 0; k < 4; k++)
            if (fout[4 * i + k] != tf4[4 * i + k])
                fail_msg("%s tex1Dfetch float4 %d.%d: %g", corpus_arch(a), i, k, (double)fout[4 * i + k]);
        float want = ref_tex1d(tf, N, (double)(((float)i + 0.5f) / (float)N), true, true, SIM_ADDRESS_CLAMP, 0);
        if (out[i] != want)
            fail_msg("%s tex1D %d: %.9g, want %.9g", corpus_arch(a), i, (double)out[i], (double)want);
    }
}

/* Point sample of a w x h level at normalized (u, v), clamped. */
static float point2d(const float *L, int w, int h, float u, float v)
{
    int x = (int)floor((double)u * w), y = (int)floor((double)v * h);
    x = x < 0 ? 0 : x >= w ? w - 1 : x;
    y = y < 0 ? 0 : y >= h ? h - 1 : y;
    return L[y * w + x];
}

/* tex_sample_2d: a two-level 2D texture (point sampling, nearest level),
 * explicit and gradient levels of detail, a gather, a 3D and a layered
 * texture. */
static void check_sample_2d(emu *e, size_t a)
{
    enum { W = 16, H = 8, D = 4, LAYERS = 4 };
    static float t2[W * H + (W / 2) * (H / 2)], t3[W * H * D], tl[W * H * LAYERS], out[W * H];
    for (int i = 0; i < W * H; i++)
        t2[i] = (float)(i % 13) * 0.5f + (float)(i / W);
    for (int i = 0; i < (W / 2) * (H / 2); i++)
        t2[W * H + i] = 100.0f + (float)i;
    for (int i = 0; i < W * H * D; i++)
        t3[i] = (float)(i % 29) * 0.25f;
    for (int i = 0; i < W * H * LAYERS; i++)
        tl[i] = (float)(i % 31) - 15.0f;
    sim_texture_desc d2 = float_desc(W, H, 1, 1);
    d2.levels = 2;
    uint64_t h2 = make_object(e, d2, t2, sizeof t2, false, NULL);
    uint64_t h3 = make_object(e, float_desc(W, H, D, 1), t3, sizeof t3, false, NULL);
    sim_texture_desc dl = float_desc(W, H, 1, 1);
    dl.layers = LAYERS;
    uint64_t hl = make_object(e, dl, tl, sizeof tl, false, NULL);
    uint64_t dout = emu_buf(e, NULL, sizeof out);
    int w = W, h = H;
    const void *args[] = {&h2, &h3, &hl, &dout, &w, &h};
    emu_run(e, "_Z13tex_sample_2dyyyPfii", emu_cfg(2, 2, 8, 4), args);
    emu_read(e, out, dout, sizeof out);
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            float u = ((float)x + 0.5f) / W, v = ((float)y + 0.5f) / H;
            /* tex2D: level 0; tex2DLod 1.5: rounds to level 2, clamped to
             * the last level (1); tex2DGrad: 0.16 texels, level 0 */
            float r = point2d(t2, W, H, u, v);
            r += point2d(t2 + W * H, W / 2, H / 2, u, v);
            r += point2d(t2, W, H, u, v);
            /* gather: texels (i, j+1), (i+1, j+1), (i+1, j), (i, j) of the
             * bilinear footprint, i = floor(u W - 0.5), clamped */
            int i0 = (int)floor((double)u * W - 0.5), j0 = (int)floor((double)v * H - 0.5);
            const int di[4] = {0, 1, 1, 0}, dj[4] = {1, 1, 0, 0};
            float gsum[4];
            for (int k = 0; k < 4; k++) {
                int xi = i0 + di[k], yj = j0 + dj[k];
                xi = xi < 0 ? 0 : xi >= W ? W - 1 : xi;
                yj = yj < 0 ? 0 : yj >= H ? H - 1 : yj;
                gsum[k] = t2[yj * W + xi];
            }
            r += gsum[0] + gsum[1] + gsum[2] + gsum[3];
            r += t3[(2 * H + y) * W + x]; /* tex3D at w = 0.5: slice 2 */
            r += tl[((y & 3) * H + y) * W + x];
            if (out[y * W + x] != r)
                fail_msg("%s tex_sample_2d (%d,%d): %.9g, want %.9g", corpus_arch(a), x, y, (double)out[y * W + x],
                         (double)r);
        }
}

/* tex_cubemap: a float4 cubemap whose texels name their face and position;
 * directions (cos a, sin a, 0.5) pick the face of the major axis. */
static void check_cubemap(emu *e, size_t a)
{
    enum { S = 8, N = 700 };
    static float faces[6 * S * S * 4], out[N * 4];
    for (int f = 0; f < 6; f++)
        for (int i = 0; i < S * S; i++) {
            float *p = &faces[(f * S * S + i) * 4];
            p[0] = (float)f;
            p[1] = (float)(i % S);
            p[2] = (float)(i / S);
            p[3] = 1.0f;
        }
    sim_texture_desc t = float_desc(S, S, 1, 4);
    t.cubemap = true;
    uint64_t hc = make_object(e, t, faces, sizeof faces, false, NULL);
    uint64_t dout = emu_buf(e, NULL, sizeof out);
    int n = N;
    const void *args[] = {&hc, &dout, &n};
    emu_run(e, "_Z11tex_cubemapyP6float4i", emu_cfg(3, 1, 256, 1), args);
    emu_read(e, out, dout, sizeof out);
    int checked = 0;
    for (int i = 0; i < N; i++) {
        float ang = (float)i * 0.01f;
        double x = cosf(ang), y = sinf(ang), z = 0.5;
        /* the guide's face table: major axis, then (s, t) */
        double ax = fabs(x), ay = fabs(y), az = fabs(z), ma, sc, tc;
        int face;
        if (ax >= ay && ax >= az) {
            face = x >= 0 ? 0 : 1, ma = ax, sc = x >= 0 ? -z : z, tc = -y;
        } else if (ay >= az) {
            face = y >= 0 ? 2 : 3, ma = ay, sc = x, tc = y >= 0 ? z : -z;
        } else {
            face = z >= 0 ? 4 : 5, ma = az, sc = z >= 0 ? x : -x, tc = -y;
        }
        double s = (sc / ma + 1) / 2 * S, tt = (tc / ma + 1) / 2 * S;
        /* skip directions within 1e-4 texel of a texel edge or a face
         * boundary: cosf/sinf here and the device's approximations may
         * round differently */
        if (fabs(s - nearbyint(s)) < 1e-4 || fabs(tt - nearbyint(tt)) < 1e-4 ||
            fabs(fabs(x) - fabs(y)) < 1e-4 || fabs(fabs(x) - 0.5) < 1e-4 || fabs(fabs(y) - 0.5) < 1e-4)
            continue;
        int px = (int)floor(s), py = (int)floor(tt);
        px = px >= S ? S - 1 : px;
        py = py >= S ? S - 1 : py;
        const float want[4] = {(float)face, (float)px, (float)py, 1.0f};
        for (int k = 0; k < 4; k++)
            if (out[4 * i + k] != want[k])
                fail_msg("%s texCubemap %d channel %d: %g, want %g (face %d)", corpus_arch(a), i, k,
                         (double)out[4 * i + k], (double)want[k], face);
        checked++;
    }
    assert_true(checked > N * 9 / 10);
}

/* surf_copy: float4 reads and writes, a clamped 1D read, a zero-mode byte
 * write racing with the float4 writes, 3D and layered writes; then a
 * layered write past the last layer traps. */
static void check_surfaces(emu *e, size_t a)
{
    enum { W = 8, H = 4, W1 = 5 };
    static float src[W * H * 4], s1[W1], dst[W * H * 4], s3[W * H * 2], sl[W * H * 3];
    for (int i = 0; i < W * H * 4; i++)
        src[i] = (float)i * 0.5f;
    for (int i = 0; i < W1; i++)
        s1[i] = 1000.0f * (float)(i + 1);
    sim_texture_desc d4 = {.width = W, .height = H, .channels = 4, .channel_type = PTX_TYPE_F32};
    sim_texture_desc d1 = {.width = W1, .channels = 1, .channel_type = PTX_TYPE_F32};
    sim_texture_desc d3 = {.width = W, .height = H, .depth = 2, .channels = 1, .channel_type = PTX_TYPE_F32};
    sim_texture_desc dl = {.width = W, .height = H, .layers = 3, .channels = 1, .channel_type = PTX_TYPE_F32};
    uint64_t bdst, b3, bl;
    uint64_t hsrc = make_object(e, d4, src, sizeof src, true, NULL), hdst = make_object(e, d4, NULL, sizeof dst, true, &bdst);
    uint64_t h1 = make_object(e, d1, s1, sizeof s1, true, NULL), h3 = make_object(e, d3, NULL, sizeof s3, true, &b3);
    uint64_t hl = make_object(e, dl, NULL, sizeof sl, true, &bl);
    int w = W, h = H;
    const void *args[] = {&hsrc, &hdst, &h1, &h3, &hl, &w, &h};
    emu_run(e, "_Z9surf_copyyyyyyii", emu_cfg(1, 1, W, H), args);
    emu_read(e, dst, bdst, sizeof dst);
    emu_read(e, s3, b3, sizeof s3);
    emu_read(e, sl, bl, sizeof sl);
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            float v[4];
            memcpy(v, &src[(y * W + x) * 4], sizeof v);
            v[0] += s1[x < W1 ? x : W1 - 1]; /* clamped to the last element */
            for (int k = 0; k < 4; k++) {
                int word = (y * W + x) * 4 + k; /* byte 4 word of the row: maybe a uchar4 */
                int col = (x * 16 + k * 4) / 4;
                uint32_t bytes;
                memcpy(&bytes, &dst[word], 4);
                uint32_t uc = (uint32_t)col | (uint32_t)(H - 1 - y) << 8 | 255u << 24;
                bool racing = col < W;
                if (dst[word] != v[k] && !(racing && bytes == uc))
                    fail_msg("%s surf2Dwrite (%d,%d).%d: %g (0x%08x)", corpus_arch(a), x, y, k, (double)dst[word],
                             bytes);
            }
            assert_true(s3[(1 * H + y) * W + x] == v[1] && s3[y * W + x] == 0.0f);
            assert_true(sl[(2 * H + y) * W + x] == v[2] && sl[y * W + x] == 0.0f);
        }
    /* two layers only: layer 2 is out of bounds and the write traps */
    dl.layers = 2;
    uint64_t hl2 = make_object(e, dl, NULL, sizeof sl, true, NULL);
    const void *bad[] = {&hsrc, &hdst, &h1, &h3, &hl2, &w, &h};
    assert_int_equal(emu_try(e, "_Z9surf_copyyyyyyii", emu_cfg(1, 1, W, H), bad), -1);
    if (!strstr(e->err, "surface access out of bounds") || !strstr(e->err, "layer 2"))
        fail_msg("%s: %s", corpus_arch(a), e->err);
}

static void test_textures_cu(void **state)
{
    (void)state;
    for (size_t a = 0; a < CORPUS_NARCHS; a++) {
        emu e;
        corpus_open(&e, "textures", a);
        check_fetch_1d(&e, a);
        check_sample_2d(&e, a);
        check_cubemap(&e, a);
        check_surfaces(&e, a);
        emu_close(&e);
    }
}

/* Bad objects: a number that is no handle, a surface used as a texture,
 * descriptions that cannot work. */
static void test_bad_objects(void **state)
{
    (void)state;
    emu e;
    corpus_open(&e, "textures", 1);
    uint64_t junk = 12345, out = emu_buf(&e, NULL, 4096);
    int n = 4;
    const void *args[] = {&junk, &junk, &junk, &out, &out, &out, &n};
    assert_int_equal(emu_try(&e, "_Z12tex_fetch_1dyyyPiP6float4Pfi", emu_cfg(1, 1, 4, 1), args), -1);
    if (!strstr(e.err, "not a texture object (handle 0x3039)") || !strstr(e.err, "PTX line"))
        fail_msg("%s", e.err);
    float f[16] = {0};
    sim_texture_desc t = float_desc(16, 1, 1, 1);
    uint64_t surf = make_object(&e, t, f, sizeof f, true, NULL);
    const void *args2[] = {&surf, &surf, &surf, &out, &out, &out, &n};
    assert_int_equal(emu_try(&e, "_Z12tex_fetch_1dyyyPiP6float4Pfi", emu_cfg(1, 1, 4, 1), args2), -1);
    assert_non_null(strstr(e.err, "not a texture object"));
    uint64_t h;
    t.data = emu_buf(&e, f, sizeof f);
    t.width = 17; /* one texel more than the buffer */
    assert_int_equal(sim_texture_create(e.d, &t, &h, e.err, sizeof e.err), -1);
    assert_non_null(strstr(e.err, "not inside one device allocation"));
    t.width = 16;
    t.channels = 3;
    assert_int_equal(sim_texture_create(e.d, &t, &h, e.err, sizeof e.err), -1);
    t.channels = 1;
    t.channel_type = PTX_TYPE_S32;
    t.linear_filter = true;
    assert_int_equal(sim_texture_create(e.d, &t, &h, e.err, sizeof e.err), -1);
    assert_non_null(strstr(e.err, "linear filtering needs float results"));
    assert_int_equal(sim_object_destroy(e.d, surf, e.err, sizeof e.err), 0);
    assert_int_equal(sim_object_destroy(e.d, surf, e.err, sizeof e.err), -1);
    emu_close(&e);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tex1d_modes),
        cmocka_unit_test(test_textures_cu),
        cmocka_unit_test(test_bad_objects),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
