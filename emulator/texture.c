/* texture.c — texture and surface objects of a device, and the texture
 * unit's sampling: coordinates, address modes, point and linear filtering,
 * mipmap levels, cubemap faces and four-texel gathers, as the CUDA
 * Programming Guide's "Texture Fetching" appendix describes them.
 *
 * Choices where the documentation leaves the hardware open: filter weights
 * are rounded to 8 fractional bits (the guide's 9-bit fixed point), the
 * weighted sum is computed exactly and rounded once to f32; a missing
 * channel reads 0 (y, z) or 1 (w); implicit level of detail is 0 (compute
 * kernels have no screen-space derivatives); cubemap faces are chosen by
 * the major axis with the guide's face table and sampled with clamping. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "emulator/ops.h"
#include "emulator/smallfloat.h"
#include "ir/util.h"

/* Handles are 1 + index in the device's table, offset so that a zero or
 * small integer passed by mistake is never a valid object. */
#define SIM_HANDLE_BASE 0x7e0000ull

static unsigned channel_bytes(uint8_t ty)
{
    switch (ty) {
    case PTX_TYPE_U8: case PTX_TYPE_S8: return 1;
    case PTX_TYPE_U16: case PTX_TYPE_S16: case PTX_TYPE_F16: return 2;
    case PTX_TYPE_U32: case PTX_TYPE_S32: case PTX_TYPE_F32: return 4;
    default: return 0;
    }
}

/* Whether texture reads of im give floats (float channels, or 8/16-bit
 * integer channels read normalized). */
bool sim_image_float(const sim_image *im)
{
    uint8_t ty = im->desc.channel_type;
    return ty == PTX_TYPE_F16 || ty == PTX_TYPE_F32 || im->desc.read_normalized;
}

/* Layers of im as stored: cubemaps have 6 faces per cube. */
static uint32_t stored_layers(const sim_texture_desc *t)
{
    uint32_t n = t->layers ? t->layers : 1;
    return t->cubemap ? 6 * n : n;
}

/* Width, height and depth of level l. */
static void level_dims(const sim_image *im, unsigned l, uint32_t dim[3])
{
    const sim_texture_desc *t = &im->desc;
    dim[0] = t->width >> l ? t->width >> l : 1;
    dim[1] = t->height >> l ? t->height >> l : 1;
    dim[2] = t->depth >> l ? t->depth >> l : 1;
}

/* Byte offset of level l and its row pitch. */
static uint64_t level_offset(const sim_image *im, unsigned l, uint64_t *pitch)
{
    uint64_t off = 0, tb = im->texel_bytes;
    for (unsigned k = 0;; k++) {
        uint32_t dim[3];
        level_dims(im, k, dim);
        uint64_t p = k == 0 && im->desc.pitch ? im->desc.pitch : dim[0] * tb;
        if (k == l) {
            *pitch = p;
            return off;
        }
        off += p * dim[1] * dim[2] * stored_layers(&im->desc);
    }
}

/* Check desc and add an object of the given kind. */
static int create(sim_device *d, const sim_texture_desc *desc, uint8_t kind, uint64_t *handle, char *err,
                  size_t errlen)
{
    sim_texture_desc t = *desc;
    const char *what = kind == SIM_IMAGE_TEXTURE ? "texture" : "surface";
    t.height = t.height ? t.height : 1;
    t.depth = t.depth ? t.depth : 1;
    t.levels = t.levels ? t.levels : 1;
    unsigned cb = channel_bytes(t.channel_type);
    if (cb == 0 || (t.channels != 1 && t.channels != 2 && t.channels != 4))
        return sim_fail(err, errlen, "%s: channels must be 1, 2 or 4 of u8, s8, u16, s16, u32, s32, f16 or f32",
                        what);
    if (t.width == 0 || t.width > 65536 || t.height > 65536 || t.depth > 16384 || t.layers > 2048)
        return sim_fail(err, errlen, "%s: size %ux%ux%u (%u layers) is out of range", what, t.width, t.height,
                        t.depth, t.layers);
    if (t.cubemap && (t.width != t.height || t.depth != 1))
        return sim_fail(err, errlen, "%s: cubemap faces must be square (%ux%u) and have depth 1", what, t.width,
                        t.height);
    if (t.linear_memory && (t.height != 1 || t.depth != 1 || t.layers || t.cubemap || t.levels != 1))
        return sim_fail(err, errlen, "%s: linear memory is one-dimensional, without layers or levels", what);
    if (t.levels > 17 || (t.levels > 1 && (t.width >> (t.levels - 1)) == 0 && (t.height >> (t.levels - 1)) == 0 &&
                          (t.depth >> (t.levels - 1)) == 0))
        return sim_fail(err, errlen, "%s: %u mipmap levels for size %ux%ux%u", what, t.levels, t.width, t.height,
                        t.depth);
    for (int k = 0; k < 3; k++)
        if (t.address[k] > SIM_ADDRESS_BORDER)
            return sim_fail(err, errlen, "%s: unknown address mode %u", what, t.address[k]);
    if (t.read_normalized && cb == 4 && t.channel_type != PTX_TYPE_F32)
        return sim_fail(err, errlen, "%s: normalized reads need 8- or 16-bit integer channels", what);
    sim_image im = {.desc = t, .kind = kind, .texel_bytes = cb * t.channels};
    if (t.pitch && t.pitch < (uint64_t)t.width * im.texel_bytes)
        return sim_fail(err, errlen, "%s: pitch %llu is less than a row (%llu bytes)", what,
                        (unsigned long long)t.pitch, (unsigned long long)t.width * im.texel_bytes);
    if (kind == SIM_IMAGE_TEXTURE && t.linear_filter && !sim_image_float(&im))
        return sim_fail(err, errlen, "texture: linear filtering needs float results (float channels or normalized reads)");
    uint64_t pitch;
    im.bytes = level_offset(&im, t.levels, &pitch);
    if (!sim_find_alloc(d, t.data, im.bytes))
        return sim_fail(err, errlen, "%s: its %llu bytes at 0x%llx are not inside one device allocation", what,
                        (unsigned long long)im.bytes, (unsigned long long)t.data);
    PTX_GROW(d->images, d->cap_images, (uint64_t)d->nimages + 1);
    d->images[d->nimages] = im;
    *handle = SIM_HANDLE_BASE + ++d->nimages;
    return 0;
}

int sim_texture_create(sim_device *d, const sim_texture_desc *desc, uint64_t *handle, char *err, size_t errlen)
{
    return create(d, desc, SIM_IMAGE_TEXTURE, handle, err, errlen);
}

int sim_surface_create(sim_device *d, const sim_texture_desc *desc, uint64_t *handle, char *err, size_t errlen)
{
    return create(d, desc, SIM_IMAGE_SURFACE, handle, err, errlen);
}

int sim_object_destroy(sim_device *d, uint64_t handle, char *err, size_t errlen)
{
    if (!sim_image_of(d, handle, SIM_IMAGE_TEXTURE) && !sim_image_of(d, handle, SIM_IMAGE_SURFACE))
        return sim_fail(err, errlen, "0x%llx is not a live texture or surface object", (unsigned long long)handle);
    d->images[handle - SIM_HANDLE_BASE - 1].kind = SIM_IMAGE_NONE;
    return 0;
}

const sim_image *sim_image_of(const sim_device *d, uint64_t handle, uint8_t kind)
{
    if (handle <= SIM_HANDLE_BASE || handle - SIM_HANDLE_BASE > d->nimages)
        return NULL;
    const sim_image *im = &d->images[handle - SIM_HANDLE_BASE - 1];
    return im->kind == kind ? im : NULL;
}

uint64_t sim_image_texel_addr(const sim_image *im, unsigned level, uint32_t layer, uint32_t x, uint32_t y,
                              uint32_t z)
{
    uint64_t pitch, off = level_offset(im, level, &pitch);
    uint32_t dim[3];
    level_dims(im, level, dim);
    return im->desc.data + off + (((uint64_t)layer * dim[2] + z) * dim[1] + y) * pitch + (uint64_t)x * im->texel_bytes;
}

/* The value of channel k of the texel at p, as read (raw integer,
 * float, or normalized). */
static double channel_value(const sim_image *im, const uint8_t *p, unsigned k)
{
    const sim_texture_desc *t = &im->desc;
    unsigned cb = channel_bytes(t->channel_type);
    uint32_t raw = 0;
    memcpy(&raw, p + k * cb, cb);
    bool norm = t->read_normalized;
    switch (t->channel_type) {
    case PTX_TYPE_U8: return norm ? raw / 255.0 : raw;
    case PTX_TYPE_S8: return norm ? fmax((int8_t)raw / 127.0, -1.0) : (int8_t)raw;
    case PTX_TYPE_U16: return norm ? raw / 65535.0 : raw;
    case PTX_TYPE_S16: return norm ? fmax((int16_t)raw / 32767.0, -1.0) : (int16_t)raw;
    case PTX_TYPE_U32: return raw;
    case PTX_TYPE_S32: return (int32_t)raw;
    case PTX_TYPE_F16: return sim_from_small_float(raw, 5, 10);
    default: return f32_of(raw);
    }
}

/* Texel (x, y, z) of a layer at a level into v[4]; coordinates outside
 * the level read the border color. False after a fault. */
static bool fetch(sim_cta *c, const sim_inst *in, uint32_t t, const sim_image *im, unsigned level, uint32_t layer,
                  const int64_t xyz[3], double v[4])
{
    uint32_t dim[3];
    level_dims(im, level, dim);
    if (xyz[0] < 0 || xyz[1] < 0 || xyz[2] < 0 || xyz[0] >= dim[0] || xyz[1] >= dim[1] || xyz[2] >= dim[2]) {
        for (int k = 0; k < 4; k++)
            v[k] = im->desc.linear_memory ? 0.0 : im->desc.border[k];
        return true;
    }
    uint64_t a = sim_image_texel_addr(im, level, layer, (uint32_t)xyz[0], (uint32_t)xyz[1], (uint32_t)xyz[2]);
    const uint8_t *p = sim_mem(c, in, t, PTX_SPACE_GLOBAL, a, im->texel_bytes, 1);
    if (!p)
        return false;
    for (unsigned k = 0; k < 4; k++)
        v[k] = k < im->desc.channels ? channel_value(im, p, k) : k == 3 ? 1.0 : 0.0;
    return true;
}

/* Texel index i of a dimension of n texels under address mode m (the
 * coordinate was wrapped or mirrored already when normalized); -1 for
 * the border. */
static int64_t address(int64_t i, uint32_t n, uint8_t m, bool normalized)
{
    if (m == SIM_ADDRESS_BORDER)
        return i;
    if (m == SIM_ADDRESS_WRAP && normalized)
        return ((i % n) + n) % n;
    return i < 0 ? 0 : i >= n ? n - 1 : i;
}

/* Unnormalized coordinate of a dimension of n texels: scaled when the
 * texture uses normalized coordinates, wrapped or mirrored there. */
static double scale(const sim_texture_desc *t, double u, uint32_t n, int dim)
{
    if (!t->normalized_coords)
        return u;
    if (t->address[dim] == SIM_ADDRESS_WRAP)
        u -= floor(u);
    else if (t->address[dim] == SIM_ADDRESS_MIRROR) {
        double f = u - 2.0 * floor(u / 2.0);
        u = f > 1.0 ? 2.0 - f : f;
    }
    return u * n;
}

/* The lower texel and the 8-bit weight of the upper one for linear
 * filtering at unnormalized coordinate x. */
static int64_t linear_pos(double x, double *w)
{
    double xb = x - 0.5, f = floor(xb);
    *w = nearbyint((xb - f) * 256.0) / 256.0;
    return (int64_t)f;
}

/* Clamp a float coordinate into int64 range before flooring. */
static double tame(double x) { return isnan(x) ? 0.0 : fmax(fmin(x, 1e15), -1e15); }

/* Sample one level of im at coordinates u (ndims of them) in layer; v[4]. */
static bool sample_level(sim_cta *c, const sim_inst *in, uint32_t t, const sim_image *im, unsigned level,
                         uint32_t layer, const double *u, unsigned ndims, double v[4])
{
    const sim_texture_desc *td = &im->desc;
    uint32_t dim[3];
    level_dims(im, level, dim);
    double x[3] = {0, 0, 0}, w[3] = {0, 0, 0};
    int64_t lo[3] = {0, 0, 0};
    for (unsigned k = 0; k < ndims; k++) {
        x[k] = tame(scale(td, u[k], dim[k], (int)k));
        if (td->linear_filter)
            lo[k] = linear_pos(x[k], &w[k]);
        else
            lo[k] = (int64_t)floor(x[k]);
    }
    for (int k = 0; k < 4; k++)
        v[k] = 0;
    unsigned corners = td->linear_filter ? 1u << ndims : 1;
    for (unsigned m = 0; m < corners; m++) {
        int64_t xyz[3] = {0, 0, 0};
        double weight = 1.0;
        for (unsigned k = 0; k < ndims; k++) {
            unsigned up = td->linear_filter ? (m >> k) & 1 : 0;
            xyz[k] = address(lo[k] + up, dim[k], td->address[k], td->normalized_coords);
            weight *= td->linear_filter ? (up ? w[k] : 1.0 - w[k]) : 1.0;
        }
        double tv[4];
        if (!fetch(c, in, t, im, level, layer, xyz, tv))
            return false;
        for (int k = 0; k < 4; k++)
            v[k] += weight * tv[k];
    }
    return true;
}

/* Face and face coordinates (s, t in [0, 1]) of direction (x, y, z). */
static unsigned cube_face(double x, double y, double z, double *s, double *t)
{
    double ax = fabs(x), ay = fabs(y), az = fabs(z), ma, sc, tc;
    unsigned face;
    if (ax >= ay && ax >= az) {
        face = x >= 0 ? 0 : 1;
        ma = ax;
        sc = x >= 0 ? -z : z;
        tc = -y;
    } else if (ay >= az) {
        face = y >= 0 ? 2 : 3;
        ma = ay;
        sc = x;
        tc = y >= 0 ? z : -z;
    } else {
        face = z >= 0 ? 4 : 5;
        ma = az;
        sc = z >= 0 ? x : -x;
        tc = -y;
    }
    if (ma == 0)
        ma = 1;
    *s = (sc / ma + 1) / 2;
    *t = (tc / ma + 1) / 2;
    return face;
}

bool sim_tex_sample(sim_cta *c, const sim_inst *in, uint32_t t, const sim_image *im, const sim_tex_query *q,
                    double v[4])
{
    const sim_texture_desc *td = &im->desc;
    uint32_t layers = td->layers ? td->layers : 1;
    int64_t layer = q->layer < 0 ? 0 : q->layer >= layers ? layers - 1 : q->layer;
    double u[3] = {q->coord[0], q->coord[1], q->coord[2]};
    unsigned ndims = q->ndims;
    if (q->cube) {
        double s, tt;
        unsigned face = cube_face(u[0], u[1], u[2], &s, &tt);
        layer = layer * 6 + face;
        sim_texture_desc flat = *td;
        flat.normalized_coords = true;
        flat.address[0] = flat.address[1] = SIM_ADDRESS_CLAMP;
        sim_image face_im = *im;
        face_im.desc = flat;
        double st[2] = {s, tt};
        return sim_tex_sample_levels(c, in, t, &face_im, (uint32_t)layer, st, 2, q->lod, v);
    }
    if (q->integer) { /* integer texel coordinates: no filtering or scaling */
        int64_t xyz[3] = {0, 0, 0};
        uint32_t dim[3];
        level_dims(im, 0, dim);
        for (unsigned k = 0; k < ndims; k++) {
            xyz[k] = (int64_t)q->coord[k];
            if (!td->linear_memory)
                xyz[k] = address(xyz[k], dim[k], td->address[k] == SIM_ADDRESS_BORDER ? SIM_ADDRESS_BORDER
                                                                                       : SIM_ADDRESS_CLAMP, false);
        }
        return fetch(c, in, t, im, 0, (uint32_t)layer, xyz, v);
    }
    return sim_tex_sample_levels(c, in, t, im, (uint32_t)layer, u, ndims, q->lod, v);
}

bool sim_tex_sample_levels(sim_cta *c, const sim_inst *in, uint32_t t, const sim_image *im, uint32_t layer,
                           const double *u, unsigned ndims, double lod, double v[4])
{
    const sim_texture_desc *td = &im->desc;
    double maxl = td->levels - 1;
    lod = isnan(lod) ? 0 : fmin(fmax(lod, 0.0), maxl);
    if (!td->mip_linear || td->levels == 1)
        return sample_level(c, in, t, im, (unsigned)floor(lod + 0.5 > maxl ? maxl : lod + 0.5), layer, u, ndims, v);
    unsigned l0 = (unsigned)floor(lod);
    double w = nearbyint((lod - l0) * 256.0) / 256.0, v1[4];
    if (!sample_level(c, in, t, im, l0, layer, u, ndims, v))
        return false;
    if (w == 0 || l0 + 1 > maxl)
        return true;
    if (!sample_level(c, in, t, im, l0 + 1, layer, u, ndims, v1))
        return false;
    for (int k = 0; k < 4; k++)
        v[k] = (1 - w) * v[k] + w * v1[k];
    return true;
}

bool sim_tex_gather(sim_cta *c, const sim_inst *in, uint32_t t, const sim_image *im, const double u[2],
                    unsigned comp, double v[4])
{
    const sim_texture_desc *td = &im->desc;
    uint32_t dim[3];
    level_dims(im, 0, dim);
    int64_t lo[2];
    for (int k = 0; k < 2; k++) {
        double w;
        lo[k] = linear_pos(tame(scale(td, u[k], dim[k], k)), &w);
    }
    /* the footprint in the order (i, j+1), (i+1, j+1), (i+1, j), (i, j) */
    static const int di[4] = {0, 1, 1, 0}, dj[4] = {1, 1, 0, 0};
    for (int k = 0; k < 4; k++) {
        int64_t xyz[3] = {address(lo[0] + di[k], dim[0], td->address[0], td->normalized_coords),
                          address(lo[1] + dj[k], dim[1], td->address[1], td->normalized_coords), 0};
        double tv[4];
        if (!fetch(c, in, t, im, 0, 0, xyz, tv))
            return false;
        v[k] = tv[comp];
    }
    return true;
}
