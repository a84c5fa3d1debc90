/* config_strings.h — parsers (and printers) for GPGPU-Sim's compound
 * option values, private to config.c, presets.c and their tests.
 *
 * Each parser reads the whole string into the struct it names and returns
 * 0, or -1 with one line in err saying which field (by number and name, or
 * by character position) is wrong and why. On -1 the output is unchanged
 * where the function says so, otherwise unspecified. Each printer writes
 * the canonical form that its parser reads back to the same value. */
#ifndef SIMTLAB_TIMING_CONFIG_STRINGS_H
#define SIMTLAB_TIMING_CONFIG_STRINGS_H

#include <stddef.h>
#include <stdint.h>

#include "timing/config.h"

/* Plain values: a decimal unsigned integer (no sign, no trailing text),
 * a 0/1 boolean. */
int tm_parse_u32(const char *s, uint32_t *out, char *err, size_t errlen);
int tm_parse_u64(const char *s, uint64_t *out, char *err, size_t errlen);
int tm_parse_bool(const char *s, bool *out, char *err, size_t errlen);

/* -gpgpu_cache:*, -gpgpu_const_cache:l1 (grammar in config.h), "none", and
 * GPGPU-Sim 3.x's form without the leading N/S (and with the set index
 * letter optional: linear). */
int tm_parse_cache(const char *s, tm_cache_config *out, char *err, size_t errlen);
void tm_format_cache(const tm_cache_config *c, char *buf, size_t n);

/* -gpgpu_dram_timing_opt: named ("nbk=16:CCD=2:...", any order, separators
 * ':' ';' and white space; nbkgrp, CCDL, RTPL optional: 1, 0, 0) or
 * GPGPU-Sim's positional legacy form (11 to 14 numbers). */
int tm_parse_dram_timing(const char *s, tm_dram_timing *out, char *err, size_t errlen);
void tm_format_dram_timing(const tm_dram_timing *t, char *buf, size_t n);

/* -simtlab_dram_power: KEY=VALUE pairs (separators ':' ';' and white
 * space; keys VDD IDD0 IDD2N IDD3N IDD4R IDD4W IDD5 tRFC tREFI RDIO WRIO,
 * tm_dram_power's fields in that order, units as there); keys not given keep the value
 * out has. VDD and tREFI must be positive, the rest nonnegative. */
int tm_parse_dram_power(const char *s, tm_dram_power *out, char *err, size_t errlen);
void tm_format_dram_power(const tm_dram_power *p, char *buf, size_t n);

/* -simtlab_core_power STATIC:DYNAMIC:LEAKAGE, three nonnegative numbers of
 * watts (0:0:0 turns the system power model off). */
int tm_parse_core_power(const char *s, tm_core_power *out, char *err, size_t errlen);
void tm_format_core_power(const tm_core_power *p, char *buf, size_t n);

/* -gpgpu_mem_addr_mapping: [dramid@N;]<64 letters of D B R C S 0, MSB
 * first; '.', '|' and ' ' ignored>. */
int tm_parse_addrmap(const char *s, tm_addrmap *out, char *err, size_t errlen);
void tm_format_addrmap(const tm_addrmap *m, char *buf, size_t n);

/* -gpgpu_clock_domains <core>:<icnt>:<l2>:<dram> in MHz (each > 0). */
int tm_parse_clock_domains(const char *s, double mhz[4], char *err, size_t errlen);
/* -gpgpu_shader_core_pipeline <threads>:<warp size>. */
int tm_parse_core_pipeline(const char *s, uint32_t *threads, uint32_t *warp_size, char *err, size_t errlen);

/* -gpgpu_pipeline_widths in GPGPU-Sim's order ID_OC_SP, ID_OC_DP,
 * ID_OC_INT, ID_OC_SFU, ID_OC_MEM, OC_EX_SP, OC_EX_DP, OC_EX_INT,
 * OC_EX_SFU, OC_EX_MEM, EX_WB, ID_OC_TENSOR_CORE, OC_EX_TENSOR_CORE (13
 * values; 11 leave the tensor core widths 0; GPGPU-Sim 3.x's 7 values are
 * ID_OC_SP, ID_OC_SFU, ID_OC_MEM, OC_EX_SP, OC_EX_SFU, OC_EX_MEM, EX_WB). */
int tm_parse_pipeline_widths(const char *s, uint32_t id_oc[TM_UNIT_KINDS], uint32_t oc_ex[TM_UNIT_KINDS],
                             uint32_t *ex_wb, char *err, size_t errlen);

/* A comma list of min_count..max_count unsigned numbers (the
 * -ptx_opcode_latency_* / _initiation_* lists, ADD,MAX,MUL,MAD,DIV[,SHFL]);
 * names[i] names value i in messages. Values past the count given are left
 * as they were. *count receives how many were given. */
int tm_parse_number_list(const char *s, uint32_t *vals, unsigned min_count, unsigned max_count,
                         const char *const *names, unsigned *count, char *err, size_t errlen);

/* -gpgpu_scheduler: lrr, gto, old, two_level_active:<active>:<inner>:<outer>
 * or fetch_groups:<warps>|cta[:<timeout>], into cfg's scheduler fields. */
int tm_parse_scheduler(const char *s, tm_config *cfg, char *err, size_t errlen);

/* The shortest decimal form of d that reads back as d. */
void tm_format_double(double d, char *buf, size_t n);

#endif
