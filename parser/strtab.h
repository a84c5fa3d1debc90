/* strtab.h — interned strings with per-name binding slots.
 *
 * Every identifier the lexer sees is interned once; its entry carries the
 * current meaning of the name (register, symbol, label, decoded opcode form),
 * so resolving a name in the builder is an array access, not a hash lookup.
 * Scoped bindings are restored through an undo log (see builder.c). */
#ifndef SIMTLAB_STRTAB_H
#define SIMTLAB_STRTAB_H

#include <stddef.h>
#include <stdint.h>

typedef struct strent {
    uint32_t hash, len;
    uint32_t reg;      /* cached register id for this exact name (valid if reg_gen matches) */
    uint32_t reg_gen;
    uint32_t scalar;   /* register declared with exactly this name */
    uint32_t range;    /* regdecl of a %name<N> range using this as prefix */
    uint32_t sym;      /* symbol id bound to this name */
    uint32_t label;    /* label id in the current function */
    uint32_t form;     /* decoded opcode form when used as an instruction word */
    uint32_t prefix;   /* "%r12" -> id of "%r" (UINT32_MAX: none; 0 with pindex 0: not computed) */
    uint32_t pindex;   /* ... and 12 + 1 (0 when not yet computed) */
    uint16_t sreg;     /* cached special-register lookup: 0 unknown, 1 none, 2+id */
    uint8_t comp;      /* cached component of a dotted special register */
    uint8_t pad;
} strent;

typedef struct strtab {
    char **strs;        /* NUL-terminated texts, indexed by id */
    strent *ents;
    uint32_t n, cap;
    uint32_t *slots;    /* open addressing: id + 1, 0 = empty */
    uint32_t nslots;
    char **blocks;      /* arena blocks holding the texts */
    uint32_t nblocks, capblocks;
    char *cur;          /* free space in the newest block */
    size_t curleft;
} strtab;

void strtab_init(strtab *t);
/* Id of text[0..len), interning it when new. */
uint32_t strtab_intern(strtab *t, const char *text, size_t len);
/* The same for text that may be read 8 bytes past its end (lexer tokens in
 * a padded buffer): hashed and compared a word at a time. */
uint32_t strtab_intern_padded(strtab *t, const char *text, size_t len);
/* Id of text[0..len) if already interned, else UINT32_MAX. */
uint32_t strtab_find(const strtab *t, const char *text, size_t len);
void strtab_free(strtab *t);

#endif
