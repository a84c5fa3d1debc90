/* ops_tex.c — texture and surface instructions on texture/surface objects
 * (unified mode: the handle is a 64-bit register or value): tex (1d, 2d,
 * 3d, a1d, a2d, cube, acube; plain, .level and .grad), tld4 (2d gathers)
 * and suld.b / sust.b with .trap, .clamp and .zero. The sampling itself is
 * texture.c's. Forms not handled here (tex references and samplers,
 * offsets, depth compare, sust.p) stay unsupported instructions. */
#include <math.h>

#include "emulator/ops.h"
#include "ir/util.h"

/* Operands kept in the program's xsrc pool from in->target on: the
 * handle, four coordinate elements, the level of detail, two gradient
 * vectors of four. */
enum { X_HANDLE = 0, X_COORD = 1, X_LOD = 5, X_DPDX = 6, X_DPDY = 10, X_COUNT = 14 };

/* Geometries (in->op for tex and the surfaces): coordinate layout. */
typedef enum { G_1D, G_2D, G_3D, G_A1D, G_A2D, G_CUBE, G_ACUBE } geom;

static const struct {
    uint8_t ndims;   /* texel coordinates (a cube: a direction of 3) */
    uint8_t layered; /* the first coordinate element is the layer */
    uint8_t elems;   /* elements of the coordinate vector */
} geoms[] = {
    [G_1D] = {1, 0, 1}, [G_2D] = {2, 0, 2}, [G_3D] = {3, 0, 4}, [G_A1D] = {1, 1, 2},
    [G_A2D] = {2, 1, 4}, [G_CUBE] = {3, 0, 4}, [G_ACUBE] = {3, 1, 4},
};

/* Stop the launch with a message about the object behind thread t's
 * handle. */
static void object_fault(sim_cta *c, const sim_inst *in, uint32_t t, sim_step *s, sim_error kind,
                         const char *what, uint64_t h)
{
    char who[96];
    sim_thread_coords(c, t, who, sizeof who);
    sim_fault(c, kind, "%s (handle 0x%llx) at %s, kernel %s, PTX line %u", what, (unsigned long long)h, who, c->kernel,
              in->line);
    s->event = SIM_EV_FAULT;
}

/* The object of thread t's handle, or NULL after a fault. */
static const sim_image *object(sim_cta *c, const sim_inst *in, uint32_t t, sim_step *s, uint8_t kind)
{
    uint64_t h = sim_get(c, &c->prog->xsrc[in->target + X_HANDLE], t);
    const sim_image *im = sim_image_of(c->dev, h, kind);
    if (!im)
        object_fault(c, in, t, s, SIM_ERR_ADDRESS,
                     kind == SIM_IMAGE_TEXTURE ? "not a texture object" : "not a surface object", h);
    return im;
}

/* Coordinate element k of thread t, as a float or an integer. */
static double coord(const sim_cta *c, const sim_inst *in, uint32_t t, unsigned k, bool integer)
{
    uint64_t v = sim_get(c, &c->prog->xsrc[in->target + X_COORD + k], t);
    return integer ? (double)(int32_t)v : (double)f32_of(v);
}

/* Write sample v to the destinations: f32 bits, or integers. */
static void put_sample(const sim_inst *in, const dsts *D, uint32_t t, const double v[4])
{
    for (unsigned k = 0; k < in->ndst_used; k++) {
        uint64_t bits;
        if (type_float(in->type))
            bits = bits_f32((float)v[k]);
        else
            bits = (uint32_t)(int64_t)fmax(fmin(v[k], 4294967295.0), -2147483648.0);
        PUT(k, t, bits);
    }
}

/* The level of detail of a .grad lookup: log2 of the longer gradient in
 * texels (isotropic filtering). */
static double grad_lod(const sim_cta *c, const sim_inst *in, uint32_t t, const sim_image *im, unsigned nd)
{
    const sim_src *x = &c->prog->xsrc[in->target];
    const uint32_t size[3] = {im->desc.width, im->desc.height, im->desc.depth};
    double lx = 0, ly = 0;
    for (unsigned k = 0; k < nd; k++) {
        double s = im->desc.normalized_coords ? size[k] : 1.0;
        double gx = f32_of(sim_get(c, &x[X_DPDX + k], t)) * s, gy = f32_of(sim_get(c, &x[X_DPDY + k], t)) * s;
        lx += gx * gx;
        ly += gy * gy;
    }
    double m = sqrt(fmax(lx, ly));
    return m > 0 ? log2(m) : 0.0;
}

/* Whether the result type fits the texture: floats for float textures. */
static bool result_fits(sim_cta *c, const sim_inst *in, uint32_t t, sim_step *s, const sim_image *im)
{
    if (sim_image_float(im) == type_float(in->type))
        return true;
    object_fault(c, in, t, s, SIM_ERR_ILLEGAL,
                 type_float(in->type) ? "an f32 texture read of integer channels (use normalized reads)"
                                      : "an integer texture read of float channels",
                 sim_get(c, &c->prog->xsrc[in->target + X_HANDLE], t));
    return false;
}

/* tex: in->op geometry, in->op2 0 plain / 1 .level / 2 .grad, in->type2
 * the coordinate type. */
HANDLER(op_tex)
{
    (void)O; (void)g;
    geom gm = (geom)in->op;
    bool integer = !type_float(in->type2);
    EACH_LANE(t) {
        const sim_image *im = object(c, in, t, s, SIM_IMAGE_TEXTURE);
        if (!im || !result_fits(c, in, t, s, im))
            return;
        sim_tex_query q = {.ndims = geoms[gm].ndims, .integer = integer,
                           .cube = gm == G_CUBE || gm == G_ACUBE};
        unsigned first = geoms[gm].layered;
        if (first)
            q.layer = (int32_t)sim_get(c, &c->prog->xsrc[in->target + X_COORD], t);
        for (unsigned k = 0; k < q.ndims; k++)
            q.coord[k] = coord(c, in, t, first + k, integer);
        if (in->op2 == 1)
            q.lod = f32_of(sim_get(c, &c->prog->xsrc[in->target + X_LOD], t));
        else if (in->op2 == 2)
            q.lod = grad_lod(c, in, t, im, q.cube ? 2 : q.ndims);
        double v[4];
        if (!sim_tex_sample(c, in, t, im, &q, v)) {
            s->event = SIM_EV_FAULT;
            return;
        }
        put_sample(in, D, t, v);
    }
}

/* tld4.{r,g,b,a}.2d: in->op the channel. */
HANDLER(op_tld4)
{
    (void)O; (void)g;
    EACH_LANE(t) {
        const sim_image *im = object(c, in, t, s, SIM_IMAGE_TEXTURE);
        if (!im || !result_fits(c, in, t, s, im))
            return;
        double u[2] = {coord(c, in, t, 0, false), coord(c, in, t, 1, false)}, v[4];
        if (!sim_tex_gather(c, in, t, im, u, in->op, v)) {
            s->event = SIM_EV_FAULT;
            return;
        }
        put_sample(in, D, t, v);
    }
}

/* Byte address of a surface access of `bytes` by thread t, after the
 * .trap / .clamp / .zero rule (in->op2 0, 1, 2); 0 for an ignored (zero)
 * access, or false after a fault. */
static bool surface_addr(sim_cta *c, const sim_inst *in, uint32_t t, sim_step *s, const sim_image *im,
                         unsigned bytes, uint64_t *addr)
{
    geom gm = (geom)in->op;
    unsigned first = geoms[gm].layered;
    int64_t xyz[3] = {0, 0, 0}, layer = first ? (int32_t)sim_get(c, &c->prog->xsrc[in->target + X_COORD], t) : 0;
    for (unsigned k = 0; k < geoms[gm].ndims; k++)
        xyz[k] = (int32_t)sim_get(c, &c->prog->xsrc[in->target + X_COORD + first + k], t);
    const sim_texture_desc *td = &im->desc;
    const int64_t hi[3] = {(int64_t)td->width * im->texel_bytes - bytes, (int64_t)td->height - 1,
                           (int64_t)td->depth - 1};
    int64_t layers = td->layers ? td->layers : 1;
    bool out = layer < 0 || layer >= layers;
    for (int k = 0; k < 3; k++)
        out |= xyz[k] < 0 || xyz[k] > hi[k];
    if (xyz[0] % bytes) {
        object_fault(c, in, t, s, SIM_ERR_MISALIGNED, "misaligned surface access", sim_get(c, &c->prog->xsrc[in->target], t));
        return false;
    }
    if (out && in->op2 == 0) {
        char what[128];
        snprintf(what, sizeof what, "surface access out of bounds (x %lld bytes, y %lld, z %lld, layer %lld)",
                 (long long)xyz[0], (long long)xyz[1], (long long)xyz[2], (long long)layer);
        object_fault(c, in, t, s, SIM_ERR_ADDRESS, what, sim_get(c, &c->prog->xsrc[in->target], t));
        return false;
    }
    if (out && in->op2 == 2) {
        *addr = 0;
        return true;
    }
    for (int k = 0; k < 3; k++)
        xyz[k] = xyz[k] < 0 ? 0 : xyz[k] > hi[k] ? hi[k] : xyz[k];
    layer = layer < 0 ? 0 : layer >= layers ? layers - 1 : layer;
    *addr = sim_image_texel_addr(im, 0, (uint32_t)layer, 0, (uint32_t)xyz[1], (uint32_t)xyz[2]) + (uint64_t)xyz[0];
    return true;
}

/* Host pointer to thread t's surface access of `bytes` (kind 1 load, 2
 * store), NULL for an ignored .zero access; false after a fault. */
static bool surface_ptr(sim_cta *c, const sim_inst *in, uint32_t t, sim_step *s, unsigned bytes, int kind,
                        uint8_t **p)
{
    const sim_image *im = object(c, in, t, s, SIM_IMAGE_SURFACE);
    uint64_t a;
    if (!im || !surface_addr(c, in, t, s, im, bytes, &a))
        return false;
    *p = a ? sim_mem(c, in, t, PTX_SPACE_GLOBAL, a, bytes, kind) : NULL;
    if (a && !*p) {
        s->event = SIM_EV_FAULT;
        return false;
    }
    return true;
}

/* suld.b / sust.b: in->vec elements of in->type. */
HANDLER(op_suld)
{
    (void)g;
    (void)O;
    unsigned eb = type_bits(in->type) / 8, n = in->vec ? in->vec : 1;
    EACH_LANE(t) {
        uint8_t *p;
        if (!surface_ptr(c, in, t, s, eb * n, 1, &p))
            return;
        for (unsigned k = 0; k < n; k++) {
            uint64_t v = 0;
            if (p)
                memcpy(&v, p + k * eb, eb);
            PUT(k, t, v);
        }
    }
}

HANDLER(op_sust)
{
    (void)g;
    (void)D;
    unsigned eb = type_bits(in->type) / 8, n = in->vec ? in->vec : 1;
    EACH_LANE(t) {
        uint8_t *p;
        if (!surface_ptr(c, in, t, s, eb * n, 2, &p))
            return;
        for (unsigned k = 0; p && k < n; k++) {
            uint64_t v = SRC(k, t);
            memcpy(p + k * eb, &v, eb);
        }
    }
}

/* Pool the bracket [handle, {coords}] (coordinate vector of `elems`
 * elements) and the lod / gradient operands of instruction d. */
static bool decode_bracket(sim_decoder *d, unsigned k, unsigned elems)
{
    const ptx_operand *b = sim_dec_op(d, k);
    if (b->kind != PTX_OPD_BRACKET || b->count != 2)
        return false; /* tex references with samplers: not handled */
    const ptx_operand *h = &d->f->operands[b->id], *v = &d->f->operands[b->id + 1];
    if (v->kind != PTX_OPD_VEC || v->count != elems || h->kind == PTX_OPD_SYM)
        return false;
    sim_program *p = d->p;
    d->in->target = p->nxsrc;
    p->xsrc = ptx_xrealloc(p->xsrc, (p->nxsrc + X_COUNT) * sizeof *p->xsrc);
    sim_src *x = &p->xsrc[p->nxsrc];
    memset(x, 0, X_COUNT * sizeof *x);
    p->nxsrc += X_COUNT;
    if (!sim_dec_value(d, h, &x[X_HANDLE]))
        return false;
    for (unsigned e = 0; e < elems; e++)
        if (!sim_dec_value(d, &d->f->operands[v->id + e], &x[X_COORD + e]))
            return false;
    return true;
}

/* Pool the vector operand k (up to 4 elements) at slot. */
static bool decode_vector(sim_decoder *d, unsigned k, unsigned slot)
{
    const ptx_operand *v = sim_dec_op(d, k);
    sim_src *x = &d->p->xsrc[d->in->target + slot];
    if (v->kind != PTX_OPD_VEC)
        return v->kind != PTX_OPD_PAIR && sim_dec_value(d, v, x);
    if (v->count > 4)
        return false;
    for (unsigned e = 0; e < v->count; e++)
        if (!sim_dec_value(d, &d->f->operands[v->id + e], &x[e]))
            return false;
    return true;
}

/* The geometry modifier of the form, or -1. */
static int geom_of(const sim_decoder *d)
{
    switch (sim_dec_mod(d, PTX_MODCAT_GEOM)) {
    case PTX_MOD_1D: return G_1D;
    case PTX_MOD_2D: return G_2D;
    case PTX_MOD_3D: return G_3D;
    case PTX_MOD_A1D: return G_A1D;
    case PTX_MOD_A2D: return G_A2D;
    case PTX_MOD_CUBE: return G_CUBE;
    case PTX_MOD_ACUBE: return G_ACUBE;
    default: return -1;
    }
}

/* tex.geom{.level,.grad}.v4.dtype.ctype and tld4.comp.2d.v4.dtype.f32. */
static sim_fn pick_sample(sim_decoder *d, bool gather)
{
    sim_inst *in = d->in;
    int gm = geom_of(d);
    ptx_modifier mode = sim_dec_mod(d, PTX_MODCAT_MODE);
    unsigned n = sim_dec_nops(d);
    bool fdst = in->type == PTX_TYPE_F32, idst = in->type == PTX_TYPE_S32 || in->type == PTX_TYPE_U32;
    if (gm < 0 || d->form->vec != 4 || (!fdst && !idst) || sim_dec_op(d, 0)->kind != PTX_OPD_VEC ||
        sim_dec_op(d, 0)->count != 4 || !sim_dec_dst(d, 0, 0))
        return NULL;
    if (gather) {
        static const ptx_modifier comps[4] = {PTX_MOD_R, PTX_MOD_G, PTX_MOD_B, PTX_MOD_A};
        in->op = 4;
        for (uint8_t k = 0; k < 4; k++)
            if (mode == comps[k])
                in->op = k;
        if (in->op == 4 || gm != G_2D || in->type2 != PTX_TYPE_F32 || n != 2 || !decode_bracket(d, 1, 2))
            return NULL;
        return op_tld4;
    }
    in->op = (uint8_t)gm;
    in->op2 = mode == PTX_MOD_LEVEL ? 1 : mode == PTX_MOD_GRAD ? 2 : 0;
    if ((mode != PTX_MOD_NONE && in->op2 == 0) || (in->type2 != PTX_TYPE_F32 && in->type2 != PTX_TYPE_S32) ||
        (in->type2 == PTX_TYPE_S32 && (in->op2 || gm == G_CUBE || gm == G_ACUBE)))
        return NULL;
    unsigned want = 2 + (in->op2 == 1 ? 1 : in->op2 == 2 ? 2 : 0);
    if (n != want || !decode_bracket(d, 1, geoms[gm].elems))
        return NULL;
    if (in->op2 == 1 && !decode_vector(d, 2, X_LOD))
        return NULL;
    if (in->op2 == 2 && (!decode_vector(d, 2, X_DPDX) || !decode_vector(d, 3, X_DPDY)))
        return NULL;
    return op_tex;
}

/* suld.b.geom{.vN}.btype.mode d, [surf, {coords}] and sust.b ... [..], a */
static sim_fn pick_surface(sim_decoder *d, bool store)
{
    sim_inst *in = d->in;
    int gm = geom_of(d);
    ptx_modifier clamp = sim_dec_mod(d, PTX_MODCAT_CLAMP);
    unsigned bits = ptx_type_bits((ptx_type)in->type);
    if (gm < 0 || gm == G_CUBE || gm == G_ACUBE || sim_dec_mod(d, PTX_MODCAT_MODE) != PTX_MOD_B ||
        ptx_type_class((ptx_type)in->type) != 'b' || bits < 8 || bits > 64 || sim_dec_nops(d) != 2)
        return NULL;
    in->op = (uint8_t)gm;
    in->op2 = clamp == PTX_MOD_TRAP ? 0 : clamp == PTX_MOD_CLAMP ? 1 : clamp == PTX_MOD_ZERO ? 2 : 3;
    in->vec = d->form->vec > 1 ? d->form->vec : 1;
    if (in->op2 == 3)
        in->op2 = 0; /* .trap is the default */
    if (!decode_bracket(d, store ? 0 : 1, geoms[gm].elems))
        return NULL;
    if (store)
        return sim_dec_src(d, 1, 0) && in->nsrc_used == in->vec ? op_sust : NULL;
    return sim_dec_dst(d, 0, 0) && in->ndst_used == in->vec ? op_suld : NULL;
}

sim_fn sim_pick_tex(sim_decoder *d)
{
    switch ((ptx_opcode)d->form->opcode) {
    case PTX_OP_TEX: return pick_sample(d, false);
    case PTX_OP_TLD4: return pick_sample(d, true);
    case PTX_OP_SULD: return pick_surface(d, false);
    case PTX_OP_SUST: return pick_surface(d, true);
    default: return NULL;
    }
}
