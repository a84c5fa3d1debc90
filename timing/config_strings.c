/* config_strings.c — GPGPU-Sim's compound option values (cache strings,
 * DRAM timing, address mapping, clock domains, pipeline widths, latency
 * lists, scheduler names) read into config.h's structs, and written back.
 *
 * Matches GPGPU-Sim's grammar and meaning for each value (gpu-cache.h
 * cache_config::init, dram.h memory_config::init, addrdec.cc
 * addrdec_parseoption, shader.cc's widths and scheduler names), with two
 * deliberate differences: a malformed string is an error that names the
 * field and position (GPGPU-Sim's sscanf silently stops, or asserts), and
 * numbers must be plain decimal with nothing after them. */
#include "timing/config_strings.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A read position in a string plus where its errors go. */
typedef struct cursor {
    const char *start, *p;
    char *err;
    size_t errlen;
} cursor;

/* Writes "<message> (position N)" into the error buffer; returns -1. */
static int cursor_fail(const cursor *c, const char *fmt, ...)
{
    char msg[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (c->err && c->errlen)
        snprintf(c->err, c->errlen, "%s (position %zu)", msg, (size_t)(c->p - c->start) + 1);
    return -1;
}

/* Writes a message without a position; returns -1. */
static int plain_fail(char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    if (err && errlen)
        vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
    return -1;
}

/* Describes the character at the cursor for messages: 'x' or "end of string". */
static const char *found(const cursor *c, char *buf, size_t n)
{
    if (*c->p == '\0')
        snprintf(buf, n, "the end of the string");
    else if (isprint((unsigned char)*c->p))
        snprintf(buf, n, "'%c'", *c->p);
    else
        snprintf(buf, n, "character 0x%02x", (unsigned char)*c->p);
    return buf;
}

/* Reads a decimal unsigned number that fits in max; `what` names it. */
static int read_uint(cursor *c, uint64_t max, uint64_t *out, const char *what)
{
    char fb[32];
    if (!isdigit((unsigned char)*c->p))
        return cursor_fail(c, "%s: expected a number, found %s", what, found(c, fb, sizeof fb));
    uint64_t v = 0;
    const char *first = c->p;
    while (isdigit((unsigned char)*c->p)) {
        unsigned d = (unsigned)(*c->p - '0');
        if (v > (max - d) / 10) {
            c->p = first;
            return cursor_fail(c, "%s: number larger than %llu", what, (unsigned long long)max);
        }
        v = v * 10 + d;
        c->p++;
    }
    *out = v;
    return 0;
}

/* Reads a 32-bit field; `what` names it in messages. */
static int read_u32(cursor *c, uint32_t *out, const char *what)
{
    uint64_t v;
    if (read_uint(c, UINT32_MAX, &v, what))
        return -1;
    *out = (uint32_t)v;
    return 0;
}

/* Consumes separator ch after the field `after`, or fails saying so. */
static int expect_char(cursor *c, char ch, const char *after)
{
    char fb[32];
    if (*c->p != ch)
        return cursor_fail(c, "expected '%c' after %s, found %s", ch, after, found(c, fb, sizeof fb));
    c->p++;
    return 0;
}

/* Fails unless the cursor is at the end of the string. */
static int expect_end(cursor *c, const char *after)
{
    if (*c->p != '\0')
        return cursor_fail(c, "unexpected text \"%s\" after %s", c->p, after);
    return 0;
}

/* Parses a whole string as one plain number no larger than max. */
static int parse_whole_uint(const char *s, uint64_t max, uint64_t *out, char *err, size_t errlen)
{
    cursor c = {s, s, err, errlen};
    if (read_uint(&c, max, out, "value"))
        return -1;
    return expect_end(&c, "the number");
}

int tm_parse_u32(const char *s, uint32_t *out, char *err, size_t errlen)
{
    uint64_t v;
    if (parse_whole_uint(s, UINT32_MAX, &v, err, errlen))
        return -1;
    *out = (uint32_t)v;
    return 0;
}

int tm_parse_u64(const char *s, uint64_t *out, char *err, size_t errlen)
{
    return parse_whole_uint(s, UINT64_MAX, out, err, errlen);
}

int tm_parse_bool(const char *s, bool *out, char *err, size_t errlen)
{
    if (strcmp(s, "0") == 0 || strcmp(s, "1") == 0) {
        *out = s[0] == '1';
        return 0;
    }
    return plain_fail(err, errlen, "expected 0 or 1, found \"%s\"", s);
}

/* ---- cache strings ---------------------------------------------------- */

static const char *const cache_field_names[16] = {
    "",
    "field 1 <kind N/S>",
    "field 2 <nsets>",
    "field 3 <line bytes>",
    "field 4 <assoc>",
    "field 5 <replacement>",
    "field 6 <write policy>",
    "field 7 <allocation>",
    "field 8 <write allocate>",
    "field 9 <set index>",
    "field 10 <mshr kind>",
    "field 11 <mshr entries>",
    "field 12 <mshr max merge>",
    "field 13 <miss queue>",
    "field 14 <result fifo>",
    "field 15 <data port width>",
};

/* Reads one letter of `allowed` for cache field `field`; returns its index. */
static int read_letter(cursor *c, int field, const char *allowed, int *index)
{
    char fb[32];
    const char *hit = *c->p ? strchr(allowed, *c->p) : NULL;
    if (!hit) {
        char list[32];
        size_t k = 0;
        for (const char *a = allowed; *a && k + 2 < sizeof list; a++) {
            if (a != allowed)
                list[k++] = ' ';
            list[k++] = *a;
        }
        list[k] = '\0';
        if (field == 9 && *c->p == 'C')
            return cursor_fail(c, "%s: the custom set index function C is not modelled",
                               cache_field_names[field]);
        return cursor_fail(c, "%s: %s is not one of %s", cache_field_names[field], found(c, fb, sizeof fb),
                           list);
    }
    *index = (int)(hit - allowed);
    c->p++;
    return 0;
}

/* Reads the numeric cache field `field`. */
static int cache_u32(cursor *c, int field, uint32_t *out)
{
    return read_u32(c, out, cache_field_names[field]);
}

/* Consumes separator ch that follows cache field `field`. */
static int cache_sep(cursor *c, char ch, int field)
{
    return expect_char(c, ch, cache_field_names[field]);
}

int tm_parse_cache(const char *s, tm_cache_config *out, char *err, size_t errlen)
{
    if (strcmp(s, "none") == 0) {
        *out = (tm_cache_config){.present = false};
        return 0;
    }
    cursor c = {s, s, err, errlen};
    tm_cache_config r = {.present = true, .set_index = TM_INDEX_LINEAR};
    bool modern = !isdigit((unsigned char)s[0]); /* 3.x strings start with <nsets> */
    int k;
    if (modern) {
        if (read_letter(&c, 1, "NS", &k) || cache_sep(&c, ':', 1))
            return -1;
        r.sectored = k == 1;
    }
    if (cache_u32(&c, 2, &r.nsets) || cache_sep(&c, ':', 2) || cache_u32(&c, 3, &r.line_bytes) ||
        cache_sep(&c, ':', 3) || cache_u32(&c, 4, &r.assoc) || cache_sep(&c, ',', 4))
        return -1;
    if (read_letter(&c, 5, "LF", &k) || cache_sep(&c, ':', 5))
        return -1;
    r.repl = (tm_repl)k;
    if (read_letter(&c, 6, "RBTEL", &k) || cache_sep(&c, ':', 6))
        return -1;
    r.write = (tm_write)k;
    if (read_letter(&c, 7, "mfs", &k) || cache_sep(&c, ':', 7))
        return -1;
    r.alloc = (tm_alloc)k;
    if (read_letter(&c, 8, "NWFL", &k))
        return -1;
    r.write_alloc = (tm_write_alloc)k;
    bool has_index = modern || *c.p == ':'; /* 3.x strings may leave the set index out */
    if (has_index) {
        static const tm_set_index idx[] = {TM_INDEX_LINEAR, TM_INDEX_FERMI_HASH, TM_INDEX_IPOLY, TM_INDEX_XOR};
        if (cache_sep(&c, ':', 8) || read_letter(&c, 9, "LHPX", &k))
            return -1;
        r.set_index = idx[k];
    }
    int last = has_index ? 9 : 8;
    if (cache_sep(&c, ',', last) || read_letter(&c, 10, "FAST", &k) || cache_sep(&c, ':', 10))
        return -1;
    static const tm_mshr_kind mk[] = {TM_MSHR_TEX_FIFO, TM_MSHR_ASSOC, TM_MSHR_SECTOR_ASSOC, TM_MSHR_TEX_FIFO_ASSOC};
    r.mshr_kind = mk[k];
    if (cache_u32(&c, 11, &r.mshr_entries) || cache_sep(&c, ':', 11) || cache_u32(&c, 12, &r.mshr_max_merge) ||
        cache_sep(&c, ',', 12) || cache_u32(&c, 13, &r.miss_queue))
        return -1;
    last = 13;
    if (*c.p == ':') {
        c.p++;
        if (cache_u32(&c, 14, &r.result_fifo))
            return -1;
        last = 14;
        if (*c.p == ',') {
            c.p++;
            if (cache_u32(&c, 15, &r.data_port_width))
                return -1;
            last = 15;
        }
    }
    if (expect_end(&c, cache_field_names[last]))
        return -1;
    if ((r.mshr_kind == TM_MSHR_TEX_FIFO || r.mshr_kind == TM_MSHR_TEX_FIFO_ASSOC) && last < 14)
        return plain_fail(err, errlen, "%s: texture FIFO MSHRs (F, T) need %s", cache_field_names[10],
                          cache_field_names[14]);
    *out = r;
    return 0;
}

void tm_format_cache(const tm_cache_config *c, char *buf, size_t n)
{
    if (!c->present) {
        snprintf(buf, n, "none");
        return;
    }
    static const char repl[] = "LF", write[] = "RBTEL", alloc[] = "mfs", wa[] = "NWFL", idx[] = "LHPX",
                      mshr[] = "FAST";
    snprintf(buf, n, "%c:%u:%u:%u,%c:%c:%c:%c:%c,%c:%u:%u,%u:%u,%u", c->sectored ? 'S' : 'N', c->nsets,
             c->line_bytes, c->assoc, repl[c->repl], write[c->write], alloc[c->alloc], wa[c->write_alloc],
             idx[c->set_index], mshr[c->mshr_kind], c->mshr_entries, c->mshr_max_merge, c->miss_queue,
             c->result_fifo, c->data_port_width);
}

/* ---- DRAM timing ------------------------------------------------------ */

enum { DT_KEYS = 14, DT_REQUIRED = 11 };
static const char *const dram_keys[DT_KEYS] = {"nbk", "CCD",  "RRD", "RCD",    "RAS",  "RP",  "RC",
                                               "CL",  "WL",   "CDLR", "WR",    "nbkgrp", "CCDL", "RTPL"};

/* The timing field for key i of dram_keys (also the positional order). */
static uint32_t *dram_field(tm_dram_timing *t, int i)
{
    uint32_t *f[DT_KEYS] = {&t->nbk, &t->tCCD, &t->tRRD, &t->tRCD, &t->tRAS, &t->tRP,    &t->tRC,
                            &t->tCL, &t->tWL,  &t->tCDLR, &t->tWR, &t->nbkgrp, &t->tCCDL, &t->tRTPL};
    return f[i];
}

/* True for the separators of the named form. */
static bool dram_sep(char ch) { return ch == ':' || ch == ';' || isspace((unsigned char)ch); }

/* The next KEY of a KEY=VALUE list (separators ':' ';' and white space):
 * *index its place in keys[n] and *key where it starts, or *index -1 at the
 * end of the string; -1 with a message naming the `what` keys when the key
 * is not one of them. */
static int next_key(cursor *c, const char *const *keys, int n, const char *what, const char **key, int *index)
{
    while (*c->p && dram_sep(*c->p))
        c->p++;
    *index = -1;
    if (*c->p == '\0')
        return 0;
    *key = c->p;
    while (isalnum((unsigned char)*c->p))
        c->p++;
    size_t len = (size_t)(c->p - *key);
    for (int i = 0; i < n; i++)
        if (len && strlen(keys[i]) == len && strncmp(*key, keys[i], len) == 0) {
            *index = i;
            return 0;
        }
    const char *end = *key;
    while (*end && *end != '=' && !dram_sep(*end))
        end++;
    char list[160] = "";
    for (int i = 0; i < n; i++)
        snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", i ? " " : "", keys[i]);
    c->p = *key;
    return cursor_fail(c, "unknown %s key \"%.*s\" (keys: %s)", what, (int)(end - *key), *key, list);
}

int tm_parse_dram_timing(const char *s, tm_dram_timing *out, char *err, size_t errlen)
{
    cursor c = {s, s, err, errlen};
    tm_dram_timing t = {.nbkgrp = 1, .tCCDL = 0, .tRTPL = 0};
    if (!strchr(s, '=')) { /* positional legacy form */
        int n = 0;
        while (isspace((unsigned char)*c.p))
            c.p++;
        for (;;) {
            char what[48];
            snprintf(what, sizeof what, "value %d <%s>", n + 1, dram_keys[n < DT_KEYS ? n : DT_KEYS - 1]);
            if (read_u32(&c, dram_field(&t, n), what))
                return -1;
            n++;
            while (isspace((unsigned char)*c.p))
                c.p++;
            if (*c.p == '\0')
                break;
            if (n == DT_KEYS)
                return cursor_fail(&c, "more than %d values (nbk:CCD:RRD:RCD:RAS:RP:RC:CL:WL:CDLR:WR:nbkgrp:CCDL:RTPL)",
                                   DT_KEYS);
            if (expect_char(&c, ':', what))
                return -1;
            while (isspace((unsigned char)*c.p))
                c.p++;
        }
        if (n < DT_REQUIRED)
            return plain_fail(err, errlen,
                              "positional DRAM timing needs %d to %d values "
                              "(nbk:CCD:RRD:RCD:RAS:RP:RC:CL:WL:CDLR:WR[:nbkgrp:CCDL:RTPL]), found %d",
                              DT_REQUIRED, DT_KEYS, n);
        *out = t;
        return 0;
    }
    bool seen[DT_KEYS] = {false};
    for (;;) {
        int i;
        const char *key;
        if (next_key(&c, dram_keys, DT_KEYS, "DRAM timing", &key, &i))
            return -1;
        if (i < 0)
            break;
        if (seen[i]) {
            c.p = key;
            return cursor_fail(&c, "DRAM timing key %s given twice", dram_keys[i]);
        }
        seen[i] = true;
        while (*c.p == ' ' || *c.p == '\t')
            c.p++;
        char what[32];
        snprintf(what, sizeof what, "key %s", dram_keys[i]);
        if (expect_char(&c, '=', what))
            return -1;
        while (*c.p == ' ' || *c.p == '\t')
            c.p++;
        if (read_u32(&c, dram_field(&t, i), what))
            return -1;
        if (*c.p && !dram_sep(*c.p))
            return cursor_fail(&c, "unexpected '%c' after the value of %s", *c.p, dram_keys[i]);
    }
    for (int i = 0; i < DT_REQUIRED; i++)
        if (!seen[i])
            return plain_fail(err, errlen, "DRAM timing key %s is missing (required: nbk CCD RRD RCD RAS RP RC CL WL CDLR WR)",
                              dram_keys[i]);
    *out = t;
    return 0;
}

void tm_format_dram_timing(const tm_dram_timing *t, char *buf, size_t n)
{
    size_t k = 0;
    buf[0] = '\0';
    tm_dram_timing copy = *t;
    for (int i = 0; i < DT_KEYS && k < n; i++) {
        int w = snprintf(buf + k, n - k, "%s%s=%u", i ? ":" : "", dram_keys[i], *dram_field(&copy, i));
        if (w < 0)
            return;
        k += (size_t)w;
    }
}

/* ---- DRAM energy parameters ---------------------------------------------- */

enum { DP_KEYS = 11 };
static const char *const power_keys[DP_KEYS] = {"VDD",  "IDD0", "IDD2N", "IDD3N", "IDD4R", "IDD4W",
                                                "IDD5", "tRFC", "tREFI", "RDIO",  "WRIO"};

/* Field i of p, in power_keys order. */
static double *power_field(tm_dram_power *p, int i)
{
    double *f[DP_KEYS] = {&p->vdd,   &p->idd0,  &p->idd2n,   &p->idd3n,    &p->idd4r,   &p->idd4w,
                          &p->idd5,  &p->trfc_ns, &p->trefi_ns, &p->rd_io_mw, &p->wr_io_mw};
    return f[i];
}

int tm_parse_dram_power(const char *s, tm_dram_power *out, char *err, size_t errlen)
{
    cursor c = {s, s, err, errlen};
    tm_dram_power p = *out;
    for (;;) {
        int i;
        const char *key;
        if (next_key(&c, power_keys, DP_KEYS, "DRAM power", &key, &i))
            return -1;
        if (i < 0)
            break;
        if (expect_char(&c, '=', power_keys[i]))
            return -1;
        char *end;
        errno = 0;
        double v = strtod(c.p, &end);
        if (end == c.p || errno || !isfinite(v) || v < 0 || (v == 0 && (i == 0 || i == 8)))
            return cursor_fail(&c, "%s: not a %s number", power_keys[i], i == 0 || i == 8 ? "positive" : "nonnegative");
        c.p = end;
        if (*c.p && !dram_sep(*c.p))
            return cursor_fail(&c, "unexpected '%c' after the value of %s", *c.p, power_keys[i]);
        *power_field(&p, i) = v;
    }
    *out = p;
    return 0;
}

void tm_format_dram_power(const tm_dram_power *p, char *buf, size_t n)
{
    size_t k = 0;
    buf[0] = '\0';
    tm_dram_power copy = *p;
    for (int i = 0; i < DP_KEYS && k < n; i++) {
        char v[40];
        tm_format_double(*power_field(&copy, i), v, sizeof v);
        int w = snprintf(buf + k, n - k, "%s%s=%s", i ? ":" : "", power_keys[i], v);
        if (w < 0)
            return;
        k += (size_t)w;
    }
}

int tm_parse_core_power(const char *s, tm_core_power *out, char *err, size_t errlen)
{
    static const char *const names[3] = {"<static W>", "<dynamic W>", "<leakage W>"};
    cursor c = {s, s, err, errlen};
    double v[3];
    for (int i = 0; i < 3; i++) {
        char *end;
        errno = 0;
        v[i] = strtod(c.p, &end);
        if (end == c.p || errno || !isfinite(v[i]) || v[i] < 0)
            return cursor_fail(&c, "value %d %s: not a nonnegative number of watts", i + 1, names[i]);
        c.p = end;
        if (i < 2 && expect_char(&c, ':', names[i]))
            return -1;
        if (i == 2 && expect_end(&c, names[i]))
            return -1;
    }
    *out = (tm_core_power){v[0], v[1], v[2]};
    return 0;
}

void tm_format_core_power(const tm_core_power *p, char *buf, size_t n)
{
    char a[40], b[40], c[40];
    tm_format_double(p->static_w, a, sizeof a);
    tm_format_double(p->dynamic_w, b, sizeof b);
    tm_format_double(p->leakage_w, c, sizeof c);
    snprintf(buf, n, "%s:%s:%s", a, b, c);
}

/* ---- address mapping --------------------------------------------------- */

int tm_parse_addrmap(const char *s, tm_addrmap *out, char *err, size_t errlen)
{
    cursor c = {s, s, err, errlen};
    tm_addrmap m = {.dramid_bit = -1};
    const char *semi = strchr(s, ';');
    if (strncmp(s, "dramid@", 7) == 0) {
        c.p += 7;
        uint32_t bit;
        if (read_u32(&c, &bit, "dramid@<bit>"))
            return -1;
        if (bit > 63) {
            c.p = s + 7;
            return cursor_fail(&c, "dramid@%u: the channel's start bit must be below 64", bit);
        }
        m.dramid_bit = (int32_t)bit;
        if (expect_char(&c, ';', "dramid@<bit>"))
            return -1;
    } else if (semi) {
        c.p = semi;
        return cursor_fail(&c, "';' without a leading dramid@<bit>");
    }
    int ofs = 63;
    for (; *c.p; c.p++) {
        char ch = (char)toupper((unsigned char)*c.p);
        if (ch == '.' || ch == '|' || ch == ' ')
            continue;
        if (!strchr("DBRCS0", ch)) {
            char fb[32];
            return cursor_fail(&c, "%s is not one of D B R C S 0 . (the address bit letters)", found(&c, fb, sizeof fb));
        }
        if (ofs < 0)
            return cursor_fail(&c, "more than 64 address bits");
        uint64_t bit = 1ull << ofs;
        switch (ch) {
        case 'D':
            if (m.dramid_bit >= 0)
                return cursor_fail(&c, "D (channel) bit %d with dramid@%d: the channel comes from dramid", ofs,
                                   (int)m.dramid_bit);
            m.chip_mask |= bit;
            break;
        case 'B': m.bank_mask |= bit; break;
        case 'R': m.row_mask |= bit; break;
        case 'C': m.col_mask |= bit; break;
        case 'S': m.burst_mask |= bit; m.col_mask |= bit; break; /* the burst offset is part of the column */
        default: break;                                          /* '0': an address bit no field uses */
        }
        ofs--;
    }
    if (ofs != -1)
        return plain_fail(err, errlen, "the mapping gives %d address bits; 64 are needed (bit 63 first)", 63 - ofs);
    *out = m;
    return 0;
}

void tm_format_addrmap(const tm_addrmap *m, char *buf, size_t n)
{
    char bits[64 + 8 + 1];
    size_t k = 0;
    for (int b = 63; b >= 0; b--) {
        uint64_t bit = 1ull << b;
        char ch = '0';
        if (m->chip_mask & bit)
            ch = 'D';
        else if (m->bank_mask & bit)
            ch = 'B';
        else if (m->row_mask & bit)
            ch = 'R';
        else if (m->burst_mask & bit)
            ch = 'S';
        else if (m->col_mask & bit)
            ch = 'C';
        bits[k++] = ch;
        if (b % 8 == 0 && b)
            bits[k++] = '.';
    }
    bits[k] = '\0';
    if (m->dramid_bit >= 0)
        snprintf(buf, n, "dramid@%d;%s", (int)m->dramid_bit, bits);
    else
        snprintf(buf, n, "%s", bits);
}

/* ---- clocks, core pipeline, widths, lists, scheduler --------------------- */

int tm_parse_clock_domains(const char *s, double mhz[4], char *err, size_t errlen)
{
    static const char *const names[4] = {"<core>", "<icnt>", "<l2>", "<dram>"};
    cursor c = {s, s, err, errlen};
    double v[4];
    for (int i = 0; i < 4; i++) {
        char *end;
        errno = 0;
        if (!isdigit((unsigned char)*c.p) && *c.p != '.') {
            char fb[32];
            return cursor_fail(&c, "clock %d %s: expected a frequency in MHz, found %s", i + 1, names[i],
                               found(&c, fb, sizeof fb));
        }
        v[i] = strtod(c.p, &end);
        if (end == c.p || errno || !isfinite(v[i]) || v[i] <= 0)
            return cursor_fail(&c, "clock %d %s: not a positive frequency in MHz", i + 1, names[i]);
        c.p = end;
        char what[32];
        snprintf(what, sizeof what, "clock %d %s", i + 1, names[i]);
        if (i < 3 && expect_char(&c, ':', what))
            return -1;
        if (i == 3 && expect_end(&c, what))
            return -1;
    }
    memcpy(mhz, v, sizeof v);
    return 0;
}

int tm_parse_core_pipeline(const char *s, uint32_t *threads, uint32_t *warp_size, char *err, size_t errlen)
{
    cursor c = {s, s, err, errlen};
    uint32_t t, w;
    if (read_u32(&c, &t, "<threads per core>") || expect_char(&c, ':', "<threads per core>") ||
        read_u32(&c, &w, "<warp size>") || expect_end(&c, "<warp size>"))
        return -1;
    *threads = t;
    *warp_size = w;
    return 0;
}

int tm_parse_number_list(const char *s, uint32_t *vals, unsigned min_count, unsigned max_count,
                         const char *const *names, unsigned *count, char *err, size_t errlen)
{
    cursor c = {s, s, err, errlen};
    uint32_t v[16];
    unsigned n = 0;
    if (max_count > 16)
        max_count = 16;
    for (;;) {
        char what[48];
        snprintf(what, sizeof what, "value %u <%s>", n + 1, n < max_count ? names[n] : "?");
        if (n == max_count)
            return cursor_fail(&c, "more than %u values", max_count);
        if (read_u32(&c, &v[n], what))
            return -1;
        n++;
        if (*c.p == '\0')
            break;
        if (expect_char(&c, ',', what))
            return -1;
    }
    if (n < min_count)
        return plain_fail(err, errlen, "%u values given, %u needed (%s%s)", n, min_count, names[0],
                          min_count > 1 ? ",..." : "");
    memcpy(vals, v, n * sizeof v[0]);
    if (count)
        *count = n;
    return 0;
}

int tm_parse_pipeline_widths(const char *s, uint32_t id_oc[TM_UNIT_KINDS], uint32_t oc_ex[TM_UNIT_KINDS],
                             uint32_t *ex_wb, char *err, size_t errlen)
{
    static const char *const names[13] = {"ID_OC_SP",  "ID_OC_DP",  "ID_OC_INT", "ID_OC_SFU",         "ID_OC_MEM",
                                          "OC_EX_SP",  "OC_EX_DP",  "OC_EX_INT", "OC_EX_SFU",         "OC_EX_MEM",
                                          "EX_WB",     "ID_OC_TENSOR_CORE",      "OC_EX_TENSOR_CORE"};
    uint32_t v[13] = {0};
    unsigned n = 0;
    if (tm_parse_number_list(s, v, 7, 13, names, &n, err, errlen))
        return -1;
    uint32_t a[TM_UNIT_KINDS] = {0}, b[TM_UNIT_KINDS] = {0}, wb;
    if (n == 7) { /* GPGPU-Sim 3.x: ID_OC_SP,ID_OC_SFU,ID_OC_MEM,OC_EX_SP,OC_EX_SFU,OC_EX_MEM,EX_WB */
        a[TM_UNIT_SP] = v[0], a[TM_UNIT_SFU] = v[1], a[TM_UNIT_MEM] = v[2];
        b[TM_UNIT_SP] = v[3], b[TM_UNIT_SFU] = v[4], b[TM_UNIT_MEM] = v[5];
        wb = v[6];
    } else if (n == 11 || n == 13) {
        a[TM_UNIT_SP] = v[0], a[TM_UNIT_DP] = v[1], a[TM_UNIT_INT] = v[2], a[TM_UNIT_SFU] = v[3], a[TM_UNIT_MEM] = v[4];
        b[TM_UNIT_SP] = v[5], b[TM_UNIT_DP] = v[6], b[TM_UNIT_INT] = v[7], b[TM_UNIT_SFU] = v[8], b[TM_UNIT_MEM] = v[9];
        wb = v[10];
        a[TM_UNIT_TENSOR] = v[11], b[TM_UNIT_TENSOR] = v[12]; /* 0 when only 11 were given */
    } else {
        return plain_fail(err, errlen,
                          "%u widths given; GPGPU-Sim's list has 13 (ID_OC_SP,ID_OC_DP,ID_OC_INT,ID_OC_SFU,"
                          "ID_OC_MEM,OC_EX_SP,OC_EX_DP,OC_EX_INT,OC_EX_SFU,OC_EX_MEM,EX_WB,ID_OC_TENSOR_CORE,"
                          "OC_EX_TENSOR_CORE), or 11 without the tensor core, or 7 (3.x)",
                          n);
    }
    memcpy(id_oc, a, sizeof a);
    memcpy(oc_ex, b, sizeof b);
    *ex_wb = wb;
    return 0;
}

int tm_parse_scheduler(const char *s, tm_config *cfg, char *err, size_t errlen)
{
    static const char names[] = "lrr, gto, old, two_level_active:<N>:<inner>:<outer>, fetch_groups:<N>|cta[:<timeout>]";
    if (strcmp(s, "lrr") == 0 || strcmp(s, "gto") == 0 || strcmp(s, "old") == 0) {
        cfg->scheduler = s[0] == 'l' ? TM_SCHED_LRR : s[0] == 'g' ? TM_SCHED_GTO : TM_SCHED_OLDEST;
        return 0;
    }
    static const char two[] = "two_level_active";
    if (strncmp(s, two, sizeof two - 1) == 0) {
        cursor c = {s, s + sizeof two - 1, err, errlen};
        uint32_t a, i, o;
        if (expect_char(&c, ':', two) || read_u32(&c, &a, "<active warps>") ||
            expect_char(&c, ':', "<active warps>") || read_u32(&c, &i, "<inner prioritization>") ||
            expect_char(&c, ':', "<inner prioritization>") || read_u32(&c, &o, "<outer prioritization>") ||
            expect_end(&c, "<outer prioritization>"))
            return -1;
        cfg->scheduler = TM_SCHED_TWO_LEVEL;
        cfg->two_level_active = a, cfg->two_level_inner = i, cfg->two_level_outer = o;
        return 0;
    }
    static const char fg[] = "fetch_groups";
    if (strncmp(s, fg, sizeof fg - 1) == 0) {
        cursor c = {s, s + sizeof fg - 1, err, errlen};
        uint32_t n = 0, t = 0;
        if (expect_char(&c, ':', fg))
            return -1;
        if (strncmp(c.p, "cta", 3) == 0)
            c.p += 3; /* a group per CTA: n = 0 */
        else if (read_u32(&c, &n, "<warps per group>"))
            return -1;
        else if (!n)
            return plain_fail(err, errlen, "fetch_groups: a fetch group needs at least 1 warp (or cta: a CTA's warps)");
        if (*c.p == ':' && (expect_char(&c, ':', "<warps per group>") || read_u32(&c, &t, "<timeout>")))
            return -1;
        if (expect_end(&c, t ? "<timeout>" : "<warps per group>"))
            return -1;
        cfg->scheduler = TM_SCHED_FETCH_GROUPS;
        cfg->fetch_group_warps = n, cfg->fetch_group_timeout = t;
        return 0;
    }
    if (strncmp(s, "warp_limiting", 13) == 0 || strcmp(s, "rrr") == 0)
        return plain_fail(err, errlen, "GPGPU-Sim's scheduler \"%s\" is not modelled (%s)", s, names);
    return plain_fail(err, errlen, "unknown scheduler \"%s\" (%s)", s, names);
}

void tm_format_double(double d, char *buf, size_t n)
{
    for (int prec = 1; prec <= 17; prec++) { /* fixed notation, as configs write clocks */
        snprintf(buf, n, "%.*f", prec, d);
        if (strtod(buf, NULL) == d)
            return;
    }
    snprintf(buf, n, "%.17g", d);
}
