/* ptx.y — the PTX grammar (pure, reentrant bison parser).
 *
 * Rules only recognise structure and hand every piece to the builder
 * (builder.h): names, operands and declarations are checked and turned into
 * IR there. Lists (vector operands, initializers, name lists) carry their
 * element count as the semantic value; the builder pops that many items. */
%define api.pure full
%define api.prefix {ptx_yy}
%define parse.error custom
%locations
%param {void *scanner}
%parse-param {ptx_builder *b}

%code requires {
#include <stdbool.h>
#include <stdint.h>
#include "parser/builder.h"
#include "parser/lexer.h"
/* Locations start at line 1, column 1. */
#define PTX_YYLTYPE_IS_DECLARED 1
typedef struct PTX_YYLTYPE { int first_line, first_column; } PTX_YYLTYPE;
/* A rule's location is where its first symbol starts (nothing else is used). */
#define YYLLOC_DEFAULT(Cur, Rhs, N) ((Cur) = YYRHSLOC(Rhs, (N) ? 1 : 0))
}

%union {
    uint32_t id;
    ptxb_int num;
    ptxb_float flt;
    uint32_t count;
    struct { uint32_t name, text, line, col, body_line, body_col; } sec;
    struct { uint32_t file, line, col, extra; } loc;
}

%code {
/* The parser's stack depth: each nested '(', '{' or unary operator of an
 * expression or initializer takes one or two entries. Past it, bison reports
 * "memory exhausted", which ptx_yyerror turns into a nesting error. */
#define YYMAXDEPTH 10000
#include <string.h>

int ptx_yylex(PTX_YYSTYPE *lval, PTX_YYLTYPE *lloc, void *scanner);
static void ptx_yyerror(PTX_YYLTYPE *lloc, void *scanner, ptx_builder *b, const char *msg);

#define AT(l) ((ptxb_loc){(uint32_t)(l).first_line, (uint32_t)(l).first_column})
/* Constant-expression helpers: two's-complement arithmetic without UB. */
static ptxb_int cx(int64_t v, bool u) { ptxb_int r = {v, u}; return r; }
static int64_t wrap_add(int64_t a, int64_t b) { return (int64_t)((uint64_t)a + (uint64_t)b); }
static int64_t wrap_sub(int64_t a, int64_t b) { return (int64_t)((uint64_t)a - (uint64_t)b); }
static int64_t wrap_mul(int64_t a, int64_t b) { return (int64_t)((uint64_t)a * (uint64_t)b); }
static ptxb_int cx_div(ptx_builder *b, PTX_YYLTYPE at, ptxb_int x, ptxb_int y, bool rem);
static ptxb_int cx_shift(ptxb_int x, ptxb_int y, bool left);
static int cx_cmp(ptxb_int x, ptxb_int y);
}

%token <id> T_WORD "identifier" T_DOTWORD "directive or modifier" T_STRING "string" T_DWARF "@@DWARF line"
%token <num> T_INT "integer"
%token <flt> T_FLOAT "float literal"
%token <sec> T_SECTION ".section"
%token <loc> T_LOC ".loc"
%token <id> T_PRAGMA ".pragma"
%token T_LEXERROR "invalid token"
%token T_SINK "_" T_SHL "<<" T_SHR ">>"
%token T_LE "<=" T_GE ">=" T_EQ "==" T_NE "!=" T_ANDAND "&&" T_OROR "||"
%token T_VERSION ".version" T_TARGET ".target" T_ADDRESS_SIZE ".address_size"
%token T_ENTRY ".entry" T_FUNC ".func" T_FILE ".file" T_ALIAS ".alias"
%token T_EXTERN ".extern" T_VISIBLE ".visible" T_WEAK ".weak" T_COMMON ".common"
%token T_ALIGN ".align" T_PTR ".ptr" T_ATTRIBUTE ".attribute"
%token T_SPACE_REG ".reg" T_SPACE_GLOBAL ".global" T_SPACE_CONST ".const"
%token T_SPACE_SHARED ".shared" T_SPACE_LOCAL ".local" T_SPACE_PARAM ".param"
%token T_SPACE_TEX ".tex" T_SPACE_SREG ".sreg"
%token T_MAXNTID ".maxntid" T_REQNTID ".reqntid" T_MINNCTAPERSM ".minnctapersm"
%token T_MAXNCTAPERSM ".maxnctapersm" T_MAXNREG ".maxnreg"
%token T_MAXCLUSTERRANK ".maxclusterrank" T_REQNCTAPERCLUSTER ".reqnctapercluster"
%token T_EXPLICITCLUSTER ".explicitcluster" T_NORETURN ".noreturn"
%token T_CALLPROTOTYPE ".callprototype" T_CALLTARGETS ".calltargets" T_BRANCHTARGETS ".branchtargets"

%type <num> cexpr
%type <count> vec_elems bracket_rest call_elems init_elems name_list

%right '?' ':'
%left T_OROR
%left T_ANDAND
%left '|'
%left '^'
%left '&'
%left T_EQ T_NE
%left '<' '>' T_LE T_GE
%left T_SHL T_SHR
%left '+' '-'
%left '*' '/' '%'
%precedence UNARY

%start module

%%

module
    : %empty
    | module top
    ;

top
    : T_VERSION T_FLOAT                     { ptxb_version(b, $2.text, AT(@2)); }
    | T_TARGET target_list
    | T_ADDRESS_SIZE T_INT                  { ptxb_address_size(b, $2, AT(@2)); }
    | T_FILE T_INT T_STRING                 { ptxb_int z = {0, false}; ptxb_file(b, $2, $3, false, z, z, AT(@1)); }
    | T_FILE T_INT T_STRING ',' T_INT ',' T_INT { ptxb_file(b, $2, $3, true, $5, $7, AT(@1)); }
    | T_SECTION                             { ptxb_section(b, $1.name, $1.text, (ptxb_loc){$1.body_line, $1.body_col}); }
    | T_DWARF                               { ptxb_dwarf(b, $1); }
    | T_PRAGMA ';'                          { ptxb_pragma(b, $1, AT(@1)); }
    | T_ALIAS T_WORD ',' T_WORD ';'         { ptxb_alias(b, $2, $4, AT(@2)); }
    | attrs declarators ';'                 { ptxb_declare_end(b); }
    | function
    ;

target_list
    : T_WORD                                { ptxb_target(b, $1, AT(@1)); }
    | target_list ',' T_WORD                { ptxb_target(b, $3, AT(@3)); }
    ;

/* ---- declarations ---------------------------------------------------- */

attrs
    : attr
    | attrs attr
    ;

attr
    : T_EXTERN                              { ptxb_attr_linkage(b, PTXB_EXTERN, AT(@1)); }
    | T_VISIBLE                             { ptxb_attr_linkage(b, PTXB_VISIBLE, AT(@1)); }
    | T_WEAK                                { ptxb_attr_linkage(b, PTXB_WEAK, AT(@1)); }
    | T_COMMON                              { ptxb_attr_linkage(b, PTXB_COMMON, AT(@1)); }
    | T_SPACE_REG                           { ptxb_attr_space(b, PTX_SPACE_REG, AT(@1)); }
    | T_SPACE_GLOBAL                        { ptxb_attr_space(b, PTX_SPACE_GLOBAL, AT(@1)); }
    | T_SPACE_CONST                         { ptxb_attr_space(b, PTX_SPACE_CONST, AT(@1)); }
    | T_SPACE_SHARED                        { ptxb_attr_space(b, PTX_SPACE_SHARED, AT(@1)); }
    | T_SPACE_LOCAL                         { ptxb_attr_space(b, PTX_SPACE_LOCAL, AT(@1)); }
    | T_SPACE_PARAM                         { ptxb_attr_space(b, PTX_SPACE_PARAM, AT(@1)); }
    | T_SPACE_TEX                           { ptxb_attr_space(b, PTX_SPACE_TEX, AT(@1)); }
    | T_SPACE_SREG                          { ptxb_attr_space(b, PTX_SPACE_SREG, AT(@1)); }
    | T_ALIGN T_INT                         { ptxb_attr_align(b, $2, AT(@2)); }
    | T_PTR                                 { ptxb_attr_ptr(b, AT(@1)); }
    | T_DOTWORD                             { ptxb_attr_dotword(b, $1, AT(@1)); }
    | T_ATTRIBUTE '(' T_DOTWORD ')'         { ptxb_attr_attribute(b, $3, AT(@3)); }
    ;

declarators
    : declarator
    | declarators ',' declarator
    ;

declarator
    : T_WORD dims                           { ptxb_declare(b, $1, false, AT(@1)); }
    | T_WORD dims '=' init                  { ptxb_declare(b, $1, true, AT(@1)); }
    | T_WORD '<' T_INT '>'                  { ptxb_declare_range(b, $1, $3, AT(@1)); }
    ;

dims
    : %empty
    | dims '[' cexpr ']'                    { ptxb_dim(b, true, $3, AT(@3)); }
    | dims '[' ']'                          { ptxb_int z = {0, false}; ptxb_dim(b, false, z, AT(@2)); }
    ;

init
    : cexpr                                 { ptxb_init_int(b, $1); }
    | T_FLOAT                               { ptxb_init_float(b, $1); }
    | '-' T_FLOAT                           { ptxb_float f = $2; f.bits ^= (f.kind == PTX_OPD_F32) ? 0x80000000u : 0x8000000000000000u;
                                              f.text = PTX_NONE; ptxb_init_float(b, f); }
    | T_WORD                                { ptxb_init_sym(b, $1, 0, false, AT(@1)); }
    | T_WORD '+' cexpr                      { ptxb_init_sym(b, $1, $3.v, false, AT(@1)); }
    | T_WORD '-' cexpr                      { ptxb_init_sym(b, $1, wrap_sub(0, $3.v), false, AT(@1)); }
    | T_WORD '(' T_WORD ')'                 { ptxb_init_sym(b, $3, 0, true, AT(@3)); /* generic(sym) */ }
    | T_WORD '(' T_WORD ')' '+' cexpr       { ptxb_init_sym(b, $3, $6.v, true, AT(@3)); }
    | T_WORD '=' T_WORD                     { ptxb_init_word(b, $3); ptxb_init_named(b, $1, AT(@1)); }
    | T_WORD '=' cexpr                      { ptxb_init_int(b, $3); ptxb_init_named(b, $1, AT(@1)); }
    | '{' init_elems '}'                    { ptxb_init_list(b, $2, AT(@1)); }
    | '{' '}'                               { ptxb_init_list(b, 0, AT(@1)); }
    ;

init_elems
    : init                                  { $$ = 1; }
    | init_elems ',' init                   { $$ = $1 + 1; }
    ;

/* ---- functions --------------------------------------------------------- */

function
    : entry_head params_opt perf_list body
    | func_head ret_params_opt func_name params_opt func_attrs body
    ;

entry_head
    : T_ENTRY                               { ptxb_func_begin(b, PTX_FUNC_ENTRY, AT(@1)); }
      T_WORD                                { ptxb_func_name(b, $3, AT(@3)); }
    | attrs T_ENTRY                         { ptxb_func_begin(b, PTX_FUNC_ENTRY, AT(@2)); }
      T_WORD                                { ptxb_func_name(b, $4, AT(@4)); }
    ;

func_head
    : T_FUNC                                { ptxb_func_begin(b, PTX_FUNC_FUNC, AT(@1)); }
    | attrs T_FUNC                          { ptxb_func_begin(b, PTX_FUNC_FUNC, AT(@2)); }
    ;

func_name
    : T_WORD                                { ptxb_func_name(b, $1, AT(@1)); }
    ;

ret_params_opt
    : %empty
    | '(' param_list ')'
    ;

params_opt
    : %empty
    | '(' ')'
    | '(' param_list ')'
    ;

param_list
    : param
    | param_list ',' param
    ;

param
    : attrs T_WORD dims                     { ptxb_param(b, $2, AT(@2)); }
    | attrs T_SINK dims                     { ptxb_param(b, PTX_NONE, AT(@2)); }
    ;

func_attrs
    : %empty
    | func_attrs T_NORETURN                 { ptxb_func_noreturn(b, AT(@2)); }
    | func_attrs perf
    ;

perf_list
    : %empty
    | perf_list perf
    ;

perf
    : T_MAXNTID perf_values                 { ptxb_perf(b, PTXB_MAXNTID, AT(@1)); }
    | T_REQNTID perf_values                 { ptxb_perf(b, PTXB_REQNTID, AT(@1)); }
    | T_MINNCTAPERSM perf_values            { ptxb_perf(b, PTXB_MINNCTAPERSM, AT(@1)); }
    | T_MAXNCTAPERSM perf_values            { ptxb_perf(b, PTXB_MAXNCTAPERSM, AT(@1)); }
    | T_MAXNREG perf_values                 { ptxb_perf(b, PTXB_MAXNREG, AT(@1)); }
    | T_MAXCLUSTERRANK perf_values          { ptxb_perf(b, PTXB_MAXCLUSTERRANK, AT(@1)); }
    | T_REQNCTAPERCLUSTER perf_values       { ptxb_perf(b, PTXB_REQNCTAPERCLUSTER, AT(@1)); }
    | T_EXPLICITCLUSTER                     { ptxb_perf(b, PTXB_EXPLICITCLUSTER, AT(@1)); }
    | T_PRAGMA ';'                          { ptxb_func_pragma(b, $1, AT(@1)); }
    ;

perf_values
    : T_INT                                 { ptxb_perf_value(b, $1, AT(@1)); }
    | perf_values ',' T_INT                 { ptxb_perf_value(b, $3, AT(@3)); }
    ;

body
    : ';'                                   { ptxb_func_decl_end(b, AT(@1)); }
    | '{'                                   { ptxb_body_begin(b, AT(@1)); }
      stmts '}'                             { ptxb_body_end(b, AT(@4)); }
    ;

/* ---- statements ---------------------------------------------------------- */

/* Instructions are the bulk of PTX, so they are alternatives of `stmts`
 * itself (one reduction per instruction, not two). */
stmts
    : %empty
    | stmts T_WORD ';'                      { ptxb_instr(b, $2, AT(@2)); }
    | stmts T_WORD operands ';'             { ptxb_instr(b, $2, AT(@2)); }
    | stmts stmt
    ;

stmt
    : T_WORD ':'                            { ptxb_label(b, $1, AT(@1)); }
    | T_WORD ':' T_BRANCHTARGETS name_list ';'  { ptxb_branchtargets(b, $1, $4, AT(@1)); }
    | T_WORD ':' T_CALLTARGETS name_list ';'    { ptxb_calltargets(b, $1, $4, AT(@1)); }
    | T_WORD ':' T_CALLPROTOTYPE            { ptxb_proto_begin(b, AT(@3)); }
      proto_rets T_SINK                     { ptxb_proto_args(b); }
      proto_args proto_noreturn ';'         { ptxb_proto_end(b, $1, $<count>9 != 0, AT(@1)); }
    | guard T_WORD ';'                      { ptxb_instr(b, $2, AT(@2)); }
    | guard T_WORD operands ';'             { ptxb_instr(b, $2, AT(@2)); }
    | attrs declarators ';'                 { ptxb_declare_end(b); }
    | '{'                                   { ptxb_scope_open(b, AT(@1)); }
      stmts '}'                             { ptxb_scope_close(b, AT(@4)); }
    | T_PRAGMA ';'                          { ptxb_pragma(b, $1, AT(@1)); }
    | T_LOC                                 { ptxb_loc_directive(b, $1.file, $1.line, $1.col, $1.extra); }
    | T_DWARF                               { ptxb_dwarf(b, $1); }
    ;

name_list
    : T_WORD                                { ptxb_name_push(b, $1, AT(@1)); $$ = 1; }
    | name_list ',' T_WORD                  { ptxb_name_push(b, $3, AT(@3)); $$ = $1 + 1; }
    ;

proto_rets
    : %empty
    | '(' ')'
    | '(' param_list ')'
    ;

proto_args
    : %empty
    | '(' ')'
    | '(' param_list ')'
    ;

proto_noreturn
    : %empty                                { $<count>$ = 0; }
    | T_NORETURN                            { $<count>$ = 1; }
    ;

guard
    : '@' T_WORD                            { ptxb_guard(b, $2, false, AT(@2)); }
    | '@' '!' T_WORD                        { ptxb_guard(b, $3, true, AT(@3)); }
    ;

/* The plain register/name operand, by far the most common, reduces in one
 * step together with its list. */
operands
    : T_WORD                                { ptxb_opd_word(b, $1, 0, AT(@1)); }
    | cexpr                                 { ptxb_opd_int(b, $1, AT(@1)); }
    | operand
    | operands ',' T_WORD                   { ptxb_opd_word(b, $3, 0, AT(@3)); }
    | operands ',' cexpr                    { ptxb_opd_int(b, $3, AT(@3)); }
    | operands ',' operand
    ;

operand
    : simple_other
    | pair_elem '|' pair_elem               { ptxb_opd_group(b, PTX_OPD_PAIR, 2, AT(@1)); }
    | '{' vec_elems '}'                     { ptxb_opd_group(b, PTX_OPD_VEC, $2, AT(@1)); }
    | address
    | address T_DOTWORD                     { ptxb_opd_addr_qualifier(b, $2, AT(@2)); }
    | '[' simple_or_vec ',' bracket_rest ']' { ptxb_opd_group(b, PTX_OPD_BRACKET, $4 + 1, AT(@1)); }
    | '(' call_elems ')'                    { ptxb_opd_group(b, PTX_OPD_LIST, $2, AT(@1)); }
    | '(' ')'                               { ptxb_opd_group(b, PTX_OPD_LIST, 0, AT(@1)); }
    ;

/* A memory operand; ld and st take [a].unified. */
address
    : '[' T_WORD ']'                        { ptxb_opd_addr(b, $2, 0, AT(@2)); }
    | '[' T_WORD '+' cexpr ']'              { ptxb_opd_addr(b, $2, $4.v, AT(@2)); }
    | '[' T_WORD '-' cexpr ']'              { ptxb_opd_addr(b, $2, wrap_sub(0, $4.v), AT(@2)); }
    | '[' cexpr ']'                         { ptxb_opd_addr(b, PTX_NONE, $2.v, AT(@1)); }
    ;

simple
    : T_WORD                                { ptxb_opd_word(b, $1, 0, AT(@1)); }
    | cexpr                                 { ptxb_opd_int(b, $1, AT(@1)); }
    | simple_other
    ;

simple_other
    : '-' T_WORD                            { ptxb_opd_word(b, $2, PTX_OPF_NEG, AT(@1)); }
    | '!' T_WORD                            { ptxb_opd_word(b, $2, PTX_OPF_NOT, AT(@1)); }
    | T_WORD '+' cexpr                      { ptxb_opd_symoff(b, $1, $3.v, false, AT(@1)); }
    | T_WORD '(' T_WORD ')'                 { ptxb_opd_symoff(b, $3, 0, true, AT(@1)); }
    | T_SINK                                { ptxb_opd_sink(b, AT(@1)); }
    | T_FLOAT                               { ptxb_opd_float(b, $1, AT(@1)); }
    | '-' T_FLOAT                           { ptxb_float f = $2; f.bits ^= (f.kind == PTX_OPD_F32) ? 0x80000000u : 0x8000000000000000u;
                                              f.text = PTX_NONE; ptxb_opd_float(b, f, AT(@1)); }
    ;

pair_elem
    : T_WORD                                { ptxb_opd_word(b, $1, 0, AT(@1)); }
    | T_SINK                                { ptxb_opd_sink(b, AT(@1)); }
    ;

simple_or_vec
    : simple
    | '{' vec_elems '}'                     { ptxb_opd_group(b, PTX_OPD_VEC, $2, AT(@1)); }
    ;

vec_elems
    : simple                                { $$ = 1; }
    | vec_elems ',' simple                  { $$ = $1 + 1; }
    ;

bracket_rest
    : simple_or_vec                         { $$ = 1; }
    | bracket_rest ',' simple_or_vec        { $$ = $1 + 1; }
    ;

/* Call arguments: names, _, and integer immediates (for .reg parameters);
 * a lone immediate in parentheses is a constant expression, not a list. */
call_elems
    : T_WORD                                { ptxb_opd_word(b, $1, 0, AT(@1)); $$ = 1; }
    | T_SINK                                { ptxb_opd_sink(b, AT(@1)); $$ = 1; }
    | T_INT ','                             { ptxb_opd_int(b, $1, AT(@1)); }
      call_elem                             { $$ = 2; }
    | call_elems ',' call_elem              { $$ = $1 + 1; }
    ;

call_elem
    : T_WORD                                { ptxb_opd_word(b, $1, 0, AT(@1)); }
    | T_SINK                                { ptxb_opd_sink(b, AT(@1)); }
    | T_INT                                 { ptxb_opd_int(b, $1, AT(@1)); }
    ;

cexpr
    : T_INT                                 { $$ = $1; }
    | '(' cexpr ')'                         { $$ = $2; }
    | '-' cexpr %prec UNARY                 { $$ = cx(wrap_sub(0, $2.v), $2.is_unsigned); }
    | '~' cexpr %prec UNARY                 { $$ = cx(~$2.v, $2.is_unsigned); }
    | '(' T_DOTWORD ')' cexpr %prec UNARY   { $$ = cx($4.v, ptxb_cast_unsigned(b, $2, AT(@2))); }
    | '!' cexpr %prec UNARY                 { $$ = cx(!$2.v, false); }
    | cexpr '+' cexpr                       { $$ = cx(wrap_add($1.v, $3.v), $1.is_unsigned || $3.is_unsigned); }
    | cexpr '-' cexpr                       { $$ = cx(wrap_sub($1.v, $3.v), $1.is_unsigned || $3.is_unsigned); }
    | cexpr '*' cexpr                       { $$ = cx(wrap_mul($1.v, $3.v), $1.is_unsigned || $3.is_unsigned); }
    | cexpr '/' cexpr                       { $$ = cx_div(b, @3, $1, $3, false); }
    | cexpr '%' cexpr                       { $$ = cx_div(b, @3, $1, $3, true); }
    | cexpr T_SHL cexpr                     { $$ = cx_shift($1, $3, true); }
    | cexpr T_SHR cexpr                     { $$ = cx_shift($1, $3, false); }
    | cexpr '&' cexpr                       { $$ = cx($1.v & $3.v, $1.is_unsigned || $3.is_unsigned); }
    | cexpr '|' cexpr                       { $$ = cx($1.v | $3.v, $1.is_unsigned || $3.is_unsigned); }
    | cexpr '^' cexpr                       { $$ = cx($1.v ^ $3.v, $1.is_unsigned || $3.is_unsigned); }
    | cexpr '<' cexpr                       { $$ = cx(cx_cmp($1, $3) < 0, false); }
    | cexpr '>' cexpr                       { $$ = cx(cx_cmp($1, $3) > 0, false); }
    | cexpr T_LE cexpr                      { $$ = cx(cx_cmp($1, $3) <= 0, false); }
    | cexpr T_GE cexpr                      { $$ = cx(cx_cmp($1, $3) >= 0, false); }
    | cexpr T_EQ cexpr                      { $$ = cx($1.v == $3.v, false); }
    | cexpr T_NE cexpr                      { $$ = cx($1.v != $3.v, false); }
    | cexpr T_ANDAND cexpr                  { $$ = cx($1.v && $3.v, false); }
    | cexpr T_OROR cexpr                    { $$ = cx($1.v || $3.v, false); }
    | cexpr '?' cexpr ':' cexpr             { $$ = $1.v ? $3 : $5; }
    ;

%%

static void ptx_yyerror(PTX_YYLTYPE *lloc, void *scanner, ptx_builder *b, const char *msg)
{
    (void)scanner;
    if (strcmp(msg, "memory exhausted") == 0)
        ptxb_error(b, AT(*lloc), "expression or initializer nested too deeply: the nesting "
                                 "limit is %d parser stack entries (one or two per nested "
                                 "'(', '{' or unary operator)", YYMAXDEPTH);
    else
        ptxb_error(b, AT(*lloc), "%s", msg);
}

/* "syntax error: unexpected X, expecting A, B or C" at the offending token.
 * A token the lexer already rejected (with its own message) is not reported
 * twice. */
static int yyreport_syntax_error(const yypcontext_t *ctx, void *scanner, ptx_builder *b)
{
    yysymbol_kind_t tok = yypcontext_token(ctx);
    if (tok == YYSYMBOL_T_LEXERROR) { /* the lexer's own message */
        const ptx_lex_error *e = &ptx_yyget_extra(scanner)->err;
        ptxb_error(b, (ptxb_loc){e->line, e->col}, "%s", e->message);
        return 0;
    }
    enum { MAX = 6 };
    yysymbol_kind_t expected[MAX];
    int n = yypcontext_expected_tokens(ctx, expected, MAX);
    char msg[512];
    int k = snprintf(msg, sizeof msg, "syntax error: unexpected %s", yysymbol_name(tok));
    if (n > 0 && n < MAX) {
        for (int i = 0; i < n && k > 0 && (size_t)k < sizeof msg; i++)
            k += snprintf(msg + k, sizeof msg - (size_t)k, "%s%s",
                          i == 0 ? ", expecting " : i == n - 1 ? " or " : ", ",
                          yysymbol_name(expected[i]));
    }
    ptxb_error(b, AT(*yypcontext_location(ctx)), "%s", msg);
    return 0;
}

/* Division and remainder as PTX constant expressions define them (signed
 * unless an operand is unsigned); division by zero is an error. */
static ptxb_int cx_div(ptx_builder *b, PTX_YYLTYPE at, ptxb_int x, ptxb_int y, bool rem)
{
    bool u = x.is_unsigned || y.is_unsigned;
    if (y.v == 0) {
        ptxb_error(b, AT(at), "division by zero in constant expression");
        return cx(0, u);
    }
    if (u) {
        uint64_t a = (uint64_t)x.v, c = (uint64_t)y.v;
        return cx((int64_t)(rem ? a % c : a / c), true);
    }
    if (x.v == INT64_MIN && y.v == -1)
        return cx(rem ? 0 : INT64_MIN, false);
    return cx(rem ? x.v % y.v : x.v / y.v, false);
}

/* Three-way comparison, unsigned when either operand is unsigned. */
static int cx_cmp(ptxb_int x, ptxb_int y)
{
    if (x.is_unsigned || y.is_unsigned)
        return (uint64_t)x.v < (uint64_t)y.v ? -1 : (uint64_t)x.v > (uint64_t)y.v;
    return x.v < y.v ? -1 : x.v > y.v;
}

/* Shifts: counts of 64 or more give 0 (or the sign fill for signed >>). */
static ptxb_int cx_shift(ptxb_int x, ptxb_int y, bool left)
{
    uint64_t n = (uint64_t)y.v;
    if (left)
        return cx(n >= 64 ? 0 : (int64_t)((uint64_t)x.v << n), x.is_unsigned);
    if (x.is_unsigned)
        return cx(n >= 64 ? 0 : (int64_t)((uint64_t)x.v >> n), true);
    if (n >= 64)
        return cx(x.v < 0 ? -1 : 0, false);
    return cx(x.v < 0 ? ~(int64_t)(~(uint64_t)x.v >> n) : (int64_t)((uint64_t)x.v >> n), false);
}
