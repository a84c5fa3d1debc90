/* strtab.h — interned strings with per-name binding slots.
 *
 * Every identifier the lexer sees is interned once; its entry carries the
 * current meaning of the name (register, symbol, label, decoded opcode form),
 * so resolving a name in the builder is an entry access, not a hash lookup.
 * Scoped bindings are restored through an undo log (see builder.c).
 *
 * Entries live in fixed-size chunks that never move (pointers to them stay
 * valid while names are added), and everything derived from a name's text
 * (its %r<N> prefix and index, its part before the first dot) is computed
 * once, when the name is created, by the lexer. The builder only reads that
 * and writes the binding slots, kept in a separate array. */
#ifndef SIMTLAB_STRTAB_H
#define SIMTLAB_STRTAB_H

#include <stddef.h>
#include <stdint.h>

/* What the interning side writes, once, when a name is created. */
typedef struct strent {
    const char *text;  /* NUL-terminated, readable 8 bytes past its end */
    uint32_t hash, len;
    uint32_t prefix;   /* "%r12" -> id of "%r" (UINT32_MAX when not of that shape) */
    uint32_t pindex;   /* ... and 12 */
    uint32_t dotbase;  /* "%tid.x" -> id of "%tid" (UINT32_MAX without a dot) */
    uint32_t pad;
} strent;

/* The builder's binding slots of a name. */
typedef struct strbind {
    uint32_t reg;      /* cached register id for this exact name (valid if reg_gen matches) */
    uint32_t reg_gen;
    uint32_t scalar;   /* register declared with exactly this name */
    uint32_t range;    /* regdecl of a %name<N> range using this as prefix */
    uint32_t sym;      /* symbol id bound to this name */
    uint32_t label;    /* label id in the current function */
    uint32_t form;     /* decoded opcode form when used as an instruction word */
    uint16_t sreg;     /* cached special-register lookup: 0 unknown, 1 none, 2+id */
    uint8_t comp;      /* cached component of a dotted special register */
    uint8_t pad;
} strbind;

enum { STRTAB_CHUNK_BITS = 10, STRTAB_CACHE_BITS = 10 };

/* A recently interned short name: its (masked) first 16 bytes and length. */
typedef struct strcache {
    uint64_t w0, w1;
    uint32_t len, id;
} strcache;

typedef struct strtab {
    strent **chunks;    /* chunk pointers, allocated once (never moved) */
    strbind **bchunks;  /* the same for the binding slots */
    uint32_t nchunks;   /* room in `chunks` */
    uint32_t n;
    uint32_t *slots;    /* open addressing: id + 1, 0 = empty (interning side only) */
    uint32_t nslots;
    char **blocks;      /* arena blocks holding the texts */
    uint32_t nblocks, capblocks;
    char *cur;          /* free space in the newest block */
    size_t curleft;
    strcache *cache;    /* direct-mapped, for padded names of up to 16 bytes */
} strtab;

static inline strent *strtab_ent(const strtab *t, uint32_t id)
{
    return &t->chunks[id >> STRTAB_CHUNK_BITS][id & ((1u << STRTAB_CHUNK_BITS) - 1)];
}

static inline strbind *strtab_bind(const strtab *t, uint32_t id)
{
    return &t->bchunks[id >> STRTAB_CHUNK_BITS][id & ((1u << STRTAB_CHUNK_BITS) - 1)];
}

static inline const char *strtab_text(const strtab *t, uint32_t id)
{
    return strtab_ent(t, id)->text;
}

/* An empty table with room for at least max_names names. An input of L
 * bytes yields at most L tokens, each with at most two derived names, plus
 * pragma and section texts: the parser passes 4 L + 64. */
void strtab_init(strtab *t, uint64_t max_names);
/* Id of text[0..len), interning it when new. */
uint32_t strtab_intern(strtab *t, const char *text, size_t len);
/* The same for text that may be read 8 bytes past its end (lexer tokens in
 * a padded buffer): hashed and compared a word at a time. */
uint32_t strtab_intern_padded(strtab *t, const char *text, size_t len);
/* The texts as one array indexed by id (for the module); the arena blocks
 * are handed over too, so the table is empty afterwards. */
char **strtab_take_texts(strtab *t, char ***blocks, uint32_t *nblocks);
void strtab_free(strtab *t);

#endif
