/* pipeline.c — running the lexer and the grammar, on one thread or two.
 *
 * For large inputs the flex scanner runs on a thread of its own and hands
 * tokens to the grammar through a single-producer single-consumer ring;
 * lexing (scanning and interning names) then overlaps with parsing and IR
 * building. The scanner only interns names (strtab.h explains why that is
 * safe) and its errors travel inside tokens, so the tokens, the IR and the
 * diagnostics are exactly those of a single-threaded parse. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ir/util.h"
#include "parser/builder.h"
#include "parser/lexer.h"
#include "parser/parser.h"
#include "parser/ptx_lexer.h"
#include "parser/ptx_parser.h"

enum {
    RING_SIZE = 1 << 14,    /* tokens in flight */
    BATCH = 256,            /* tokens published or released at a time */
    PIPELINE_MIN = 1 << 20  /* inputs smaller than this are parsed on one thread */
};

typedef struct ptx_token {
    PTX_YYSTYPE val;
    PTX_YYLTYPE loc;
    int kind;
} ptx_token;

/* The ring between the lexer thread (producer) and the grammar (consumer).
 * head/tail are published positions; a side that finds nothing to do
 * sleeps on the condition variable after announcing itself in its
 * `sleeping` flag. */
enum { CONSUMER = 0, PRODUCER = 1 };

typedef struct token_ring {
    ptx_token *t;
    _Atomic uint32_t head;      /* tokens published by the producer */
    _Atomic uint32_t tail;      /* tokens released by the consumer */
    _Atomic bool stop;          /* the consumer is done: the producer must end */
    _Atomic bool sleeping[2];   /* CONSUMER / PRODUCER waits on the condition */
    pthread_mutex_t mu;
    pthread_cond_t cv;
} token_ring;

/* Where the grammar's ptx_yylex gets tokens: the scanner directly, or the
 * ring (with the consumer's private positions). */
typedef struct token_source {
    void *scanner;
    ptx_builder *b;
    token_ring *ring;
    uint32_t next, avail;
} token_source;

/* Wake side `who` if it announced that it sleeps. */
static void wake(token_ring *r, int who)
{
    if (atomic_load(&r->sleeping[who])) {
        pthread_mutex_lock(&r->mu);
        pthread_cond_broadcast(&r->cv);
        pthread_mutex_unlock(&r->mu);
    }
}

/* Sleep as `who` until ready(r, arg) holds. The sleeper announces itself
 * before its last check and the other side publishes before it looks at the
 * announcement (all sequentially consistent), so no wake-up is lost. */
static void sleep_until(token_ring *r, int who, bool (*ready)(token_ring *, uint32_t),
                        uint32_t arg)
{
    for (int spin = 0; spin < 64; spin++)
        if (ready(r, arg))
            return;
    pthread_mutex_lock(&r->mu);
    atomic_store(&r->sleeping[who], true);
    while (!ready(r, arg))
        pthread_cond_wait(&r->cv, &r->mu);
    atomic_store(&r->sleeping[who], false);
    pthread_mutex_unlock(&r->mu);
}

static bool has_room(token_ring *r, uint32_t head)
{
    return head - atomic_load(&r->tail) < RING_SIZE || atomic_load(&r->stop);
}

static bool has_data(token_ring *r, uint32_t next)
{
    return atomic_load(&r->head) != next;
}

typedef struct lexer_job { token_ring *ring; void *scanner; } lexer_job;

/* The lexer thread: scan tokens into the ring until end of input, a lexer
 * error (the grammar stops there) or the consumer's stop. */
static void *lexer_thread(void *arg)
{
    lexer_job *job = arg;
    token_ring *r = job->ring;
    uint32_t head = 0;
    for (;;) {
        if (head - atomic_load_explicit(&r->tail, memory_order_acquire) >= RING_SIZE) {
            atomic_store(&r->head, head);
            wake(r, CONSUMER);
            sleep_until(r, PRODUCER, has_room, head);
        }
        if (atomic_load_explicit(&r->stop, memory_order_relaxed))
            break;
        ptx_token *tok = &r->t[head & (RING_SIZE - 1)];
        tok->kind = ptxlexlex(&tok->val, &tok->loc, job->scanner);
        head++;
        bool last = tok->kind == PTX_YYEOF || tok->kind == T_LEXERROR;
        if (last || head % BATCH == 0) {
            atomic_store(&r->head, head);
            wake(r, CONSUMER);
        }
        if (last)
            break;
    }
    return NULL;
}

/* Report a lexer error token as a diagnostic (once: the message is freed). */
static void report_lex_error(ptx_builder *b, PTX_YYSTYPE *val)
{
    ptxb_error(b, (ptxb_loc){val->err.line, val->err.col}, "%s", val->err.message);
    free(val->err.message);
    val->err.message = NULL;
}

/* The grammar's token source (declared in ptx.y). */
int ptx_yylex(PTX_YYSTYPE *val, PTX_YYLTYPE *loc, void *src)
{
    token_source *s = src;
    int kind;
    if (!s->ring) {
        kind = ptxlexlex(val, loc, s->scanner);
    } else {
        token_ring *r = s->ring;
        if (s->next == s->avail) {
            atomic_store(&r->tail, s->next); /* hand back consumed slots */
            wake(r, PRODUCER);
            sleep_until(r, CONSUMER, has_data, s->next);
            s->avail = atomic_load(&r->head);
        }
        const ptx_token *tok = &r->t[s->next & (RING_SIZE - 1)];
        *val = tok->val;
        *loc = tok->loc;
        kind = tok->kind;
        s->next++;
        if (s->next % BATCH == 0) {
            atomic_store(&r->tail, s->next);
            wake(r, PRODUCER);
        }
    }
    if (kind == T_LEXERROR)
        report_lex_error(s->b, val);
    return kind;
}

/* Parse with the scanner on its own thread. Returns yyparse's result. */
static int parse_pipelined(void *scanner, ptx_builder *b)
{
    token_ring r = {.t = ptx_xmalloc(RING_SIZE * sizeof(ptx_token))};
    pthread_mutex_init(&r.mu, NULL);
    pthread_cond_init(&r.cv, NULL);
    lexer_job job = {&r, scanner};
    pthread_t thread;
    token_source src = {scanner, b, &r, 0, 0};
    int rc;
    if (pthread_create(&thread, NULL, lexer_thread, &job) != 0) {
        src.ring = NULL; /* no thread to be had: parse on this one */
        rc = ptx_yyparse(&src, b);
    } else {
        rc = ptx_yyparse(&src, b);
        atomic_store(&r.stop, true);
        atomic_store(&r.tail, src.next);
        wake(&r, PRODUCER);
        pthread_join(thread, NULL);
        /* a lexer error the grammar never reached still owns its message */
        for (uint32_t i = src.next; i != atomic_load(&r.head); i++)
            if (r.t[i & (RING_SIZE - 1)].kind == T_LEXERROR)
                free(r.t[i & (RING_SIZE - 1)].val.err.message);
    }
    pthread_cond_destroy(&r.cv);
    pthread_mutex_destroy(&r.mu);
    free(r.t);
    return rc;
}

/* Whether this parse should use the lexer thread. */
static bool use_pipeline(size_t len, const ptx_parse_options *opt)
{
    int threads = opt ? opt->threads : 0;
    if (threads == 1)
        return false;
    if (threads >= 2)
        return true;
    return len >= PIPELINE_MIN && sysconf(_SC_NPROCESSORS_ONLN) >= 2;
}

ptx_module *ptx_parse_buffer_opts(char *text, size_t len, const char *name, ptx_diags *diags,
                                  const ptx_parse_options *opt)
{
    ptx_builder *b = ptxb_new(name, len, diags);
    ptx_lexer_ctx ctx = {.b = b, .line = 1, .line_start = text, .sec_name = PTX_NONE};
    void *scanner;
    if (ptxlexlex_init_extra(&ctx, &scanner) != 0) {
        ptx_diag_add(diags, PTX_DIAG_ERROR, name, 0, 0, "cannot initialize the lexer");
        return ptxb_finish(b, false);
    }
    ptxlex_scan_buffer(text, len + 2, scanner); /* flex needs the last two as NUL */
    int rc;
    if (use_pipeline(len, opt)) {
        rc = parse_pipelined(scanner, b);
    } else {
        token_source src = {scanner, b, NULL, 0, 0};
        rc = ptx_yyparse(&src, b);
    }
    ptxlexlex_destroy(scanner);
    free(ctx.raw);
    return ptxb_finish(b, rc == 0);
}

ptx_module *ptx_parse_buffer(char *text, size_t len, const char *name, ptx_diags *diags)
{
    return ptx_parse_buffer_opts(text, len, name, diags, NULL);
}
