/* names.c — spellings of types, state spaces, special registers and
 * components, from the X-macro tables. */
#include "ir/ir.h"

static const struct { const char *name; unsigned bits; char cls; } types[] = {
    {"", 0, '?'},
#define X(e, name, bits, cls) {name, bits, cls},
#include "ir/types.def"
#undef X
};

const char *ptx_type_name(ptx_type t)
{
    return (unsigned)t < PTX_TYPE_COUNT ? types[t].name : "";
}

unsigned ptx_type_bits(ptx_type t)
{
    return (unsigned)t < PTX_TYPE_COUNT ? types[t].bits : 0;
}

char ptx_type_class(ptx_type t)
{
    return (unsigned)t < PTX_TYPE_COUNT ? types[t].cls : '?';
}

const char *ptx_space_name(ptx_space s)
{
    static const char *const names[PTX_SPACE_COUNT] = {
        "", "reg", "sreg", "const", "global", "local", "param", "param::entry",
        "param::func", "shared", "shared::cta", "shared::cluster", "tex"};
    return (unsigned)s < PTX_SPACE_COUNT ? names[s] : "";
}

const char *ptx_sreg_name(ptx_sreg s)
{
    static const char *const names[] = {
        "",
#define X(e, name) name,
#include "ir/sregs.def"
#undef X
    };
    return (unsigned)s < PTX_SREG_COUNT ? names[s] : "";
}

const char *ptx_component_name(ptx_component c)
{
    static const char *const names[PTX_COMP_COUNT] = {
        "", "x", "y", "z", "w", "r", "g", "b", "a", "h0", "h1", "b0", "b1", "b2", "b3",
        "h", "b"}; /* HSEL and BSEL: their digits follow (PTX_VSEL_*) */
    return (unsigned)c < PTX_COMP_COUNT ? names[c] : "";
}
