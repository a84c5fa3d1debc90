/* strtab.c — string interning: word-at-a-time hashing, open addressing,
 * entries in chunks that never move, texts in 64 KiB arena blocks (one
 * allocation per block, not per string). */
#include "parser/strtab.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ir/ir.h"
#include "ir/util.h"

enum { BLOCK_SIZE = 64 * 1024 };

/* Little-endian load of n <= 8 bytes (the rest zero). */
static uint64_t load_tail(const char *s, size_t n)
{
    uint64_t w = 0;
    for (size_t i = 0; i < n; i++)
        w |= (uint64_t)(unsigned char)s[i] << (8 * i);
    return w;
}

/* Eight bytes of which only the first n (< 8) count; s must be readable for
 * eight bytes. */
static uint64_t load_masked(const char *s, size_t n)
{
    uint64_t w;
    memcpy(&w, s, 8);
    return n ? w & (~0ull >> (64 - 8 * n)) : 0;
}

/* Hash of a name, eight bytes at a time (names are short: registers,
 * opcodes with modifiers, labels). `padded`: s may be read 8 bytes past
 * its end. */
static uint32_t hash_text(const char *s, size_t len, bool padded)
{
    uint64_t h = 0x9E3779B97F4A7C15ull ^ len;
    while (len >= 8) {
        uint64_t w;
        memcpy(&w, s, 8);
        h = (h ^ w) * 0xFF51AFD7ED558CCDull;
        h ^= h >> 32;
        s += 8;
        len -= 8;
    }
    uint64_t w = padded ? load_masked(s, len) : load_tail(s, len);
    h = (h ^ w) * 0xC4CEB9FE1A85EC53ull;
    return (uint32_t)(h ^ (h >> 29));
}

/* Equality of a stored text (always padded) with text[0..len). */
static bool same_text(const char *stored, const char *text, size_t len, bool padded)
{
    if (padded && len <= 16) {
        if (len <= 8)
            return load_masked(stored, len) == load_masked(text, len);
        return memcmp(stored, text, 8) == 0 &&
               load_masked(stored + 8, len - 8) == load_masked(text + 8, len - 8);
    }
    return memcmp(stored, text, len) == 0;
}

void strtab_init(strtab *t, uint64_t max_names)
{
    memset(t, 0, sizeof *t);
    t->nslots = 1024;
    t->slots = ptx_xcalloc(t->nslots, sizeof *t->slots);
    uint64_t chunks = (max_names >> STRTAB_CHUNK_BITS) + 2;
    if (chunks > (UINT32_MAX >> STRTAB_CHUNK_BITS))
        chunks = UINT32_MAX >> STRTAB_CHUNK_BITS;
    t->nchunks = (uint32_t)chunks;
    t->chunks = ptx_xcalloc(t->nchunks, sizeof *t->chunks);
    t->bchunks = ptx_xcalloc(t->nchunks, sizeof *t->bchunks);
    t->cache = ptx_xcalloc(1u << STRTAB_CACHE_BITS, sizeof *t->cache); /* len 0: empty */
}

/* Copy a text into the arena; large texts get a block of their own. Every
 * block keeps 8 spare bytes at its end so stored texts can be read a word
 * at a time. */
static char *arena_copy(strtab *t, const char *s, size_t len)
{
    size_t need = len + 1;
    if (need + 8 > t->curleft) {
        size_t size = need + 8 > BLOCK_SIZE / 4 ? need + 8 : BLOCK_SIZE;
        char *blk = ptx_xmalloc(size);
        t->blocks = ptx_grow(t->blocks, &t->capblocks, t->nblocks + 1, sizeof *t->blocks);
        t->blocks[t->nblocks++] = blk;
        if (size == need + 8) {
            memcpy(blk, s, len);
            memset(blk + len, 0, 9);
            return blk;
        }
        t->cur = blk;
        t->curleft = size;
    }
    char *p = t->cur;
    memcpy(p, s, len);
    p[len] = '\0';
    t->cur += need;
    t->curleft -= need;
    return p;
}

/* Double the slot table when it is half full. */
static void rehash(strtab *t)
{
    uint32_t n = t->nslots * 2;
    uint32_t *slots = ptx_xcalloc(n, sizeof *slots);
    for (uint32_t id = 0; id < t->n; id++) {
        uint32_t i = strtab_ent(t, id)->hash & (n - 1);
        while (slots[i])
            i = (i + 1) & (n - 1);
        slots[i] = id + 1;
    }
    free(t->slots);
    t->slots = slots;
    t->nslots = n;
}

static uint32_t intern(strtab *t, const char *text, size_t len, bool padded);

/* Fill in what a new name's text implies: "%r12" has prefix "%r" and index
 * 12 (no leading zeros, at most 9 digits); "%tid.x" has base "%tid". */
static void derive(strtab *t, uint32_t id, const char *text, size_t len, bool padded)
{
    size_t i = len;
    while (i > 0 && text[i - 1] >= '0' && text[i - 1] <= '9')
        i--;
    uint32_t prefix = UINT32_MAX, idx = 0;
    if (i > 0 && i < len && !(text[i] == '0' && i + 1 < len) && len - i <= 9) {
        for (size_t k = i; k < len; k++)
            idx = idx * 10 + (uint32_t)(text[k] - '0');
        prefix = intern(t, text, i, padded);
    }
    const char *dot = len > 1 ? memchr(text + 1, '.', len - 1) : NULL;
    uint32_t base = dot ? intern(t, text, (size_t)(dot - text), padded) : UINT32_MAX;
    strent *e = strtab_ent(t, id);
    e->prefix = prefix;
    e->pindex = idx;
    e->dotbase = base;
}

/* Intern with a choice of reading text word-wise (padded) or bytewise. */
static uint32_t intern(strtab *t, const char *text, size_t len, bool padded)
{
    uint32_t h = hash_text(text, len, padded);
    uint32_t i = h & (t->nslots - 1);
    for (;; i = (i + 1) & (t->nslots - 1)) {
        uint32_t s = t->slots[i];
        if (!s)
            break;
        const strent *e = strtab_ent(t, s - 1);
        if (e->hash == h && e->len == len && same_text(e->text, text, len, padded))
            return s - 1;
    }
    uint32_t id = t->n;
    uint32_t chunk = id >> STRTAB_CHUNK_BITS;
    if (chunk >= t->nchunks) { /* the caller's bound was wrong: an internal error */
        fprintf(stderr, "simtlab: internal error: more than %u distinct names\n",
                t->nchunks << STRTAB_CHUNK_BITS);
        exit(2);
    }
    if (!t->chunks[chunk]) {
        t->chunks[chunk] = ptx_xmalloc(sizeof(strent) << STRTAB_CHUNK_BITS);
        t->bchunks[chunk] = ptx_xmalloc(sizeof(strbind) << STRTAB_CHUNK_BITS);
    }
    *strtab_ent(t, id) = (strent){.text = arena_copy(t, text, len), .hash = h,
                                  .len = (uint32_t)len, .prefix = UINT32_MAX,
                                  .dotbase = UINT32_MAX};
    *strtab_bind(t, id) = (strbind){.reg = UINT32_MAX, .scalar = UINT32_MAX,
                                    .range = UINT32_MAX, .sym = UINT32_MAX,
                                    .label = UINT32_MAX, .form = UINT32_MAX};
    t->slots[i] = id + 1;
    t->n++;
    if (t->n * 2 > t->nslots)
        rehash(t);
    derive(t, id, text, len, padded);
    return id;
}

uint32_t strtab_intern(strtab *t, const char *text, size_t len)
{
    return intern(t, text, len, false);
}

uint32_t strtab_intern_padded(strtab *t, const char *text, size_t len)
{
    /* most names (registers, labels, types) are short and repeat: a
     * direct-mapped cache answers them without hashing and probing */
    if (len == 0 || len > 16)
        return intern(t, text, len, true);
    uint64_t w0 = load_masked(text, len < 8 ? len : 8);
    uint64_t w1 = len > 8 ? load_masked(text + 8, len - 8) : 0;
    uint64_t h = (w0 * 0x9E3779B97F4A7C15ull) ^ (w1 * 0xC2B2AE3D27D4EB4Full) ^ len;
    strcache *c = &t->cache[(h ^ (h >> 29)) & ((1u << STRTAB_CACHE_BITS) - 1)];
    if (c->len == len && c->w0 == w0 && c->w1 == w1)
        return c->id;
    uint32_t id = intern(t, text, len, true);
    *c = (strcache){w0, w1, (uint32_t)len, id};
    return id;
}

char **strtab_take_texts(strtab *t, char ***blocks, uint32_t *nblocks)
{
    char **texts = ptx_xmalloc((t->n ? t->n : 1) * sizeof *texts);
    for (uint32_t id = 0; id < t->n; id++)
        texts[id] = (char *)strtab_ent(t, id)->text;
    *blocks = t->blocks;
    *nblocks = t->nblocks;
    t->blocks = NULL;
    t->nblocks = t->capblocks = 0;
    return texts;
}

void strtab_free(strtab *t)
{
    for (uint32_t i = 0; i < t->nblocks; i++)
        free(t->blocks[i]);
    free(t->blocks);
    for (uint32_t c = 0; t->chunks && c < t->nchunks && t->chunks[c]; c++) {
        free(t->chunks[c]);
        free(t->bchunks[c]);
    }
    free(t->chunks);
    free(t->bchunks);
    free(t->cache);
    free(t->slots);
    memset(t, 0, sizeof *t);
}
