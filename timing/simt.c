/* simt.c — the registry of divergence mechanisms (simt.h): a new
 * mechanism adds its object here and nowhere else. */
#include "timing/simt.h"

#include <string.h>

extern const tm_simt_mechanism tm_simt_pdom, tm_simt_its, tm_simt_pdom_lpc, tm_simt_tbc, tm_simt_tbc_plus,
    tm_simt_tbc_lpc, tm_simt_tbc_ideal, tm_simt_capri, tm_simt_capri_2bit, tm_simt_capri_1bs, tm_simt_capri_ce, tm_simt_lwm, tm_simt_dpe,
    tm_simt_dpe_constrained, tm_simt_dwf, tm_simt_dwf_wb, tm_simt_dws;

static const tm_simt_mechanism *const mechanisms[] = {&tm_simt_pdom, &tm_simt_its, &tm_simt_pdom_lpc, &tm_simt_tbc,
                                                      &tm_simt_tbc_plus, &tm_simt_tbc_lpc,
                                                      &tm_simt_tbc_ideal, &tm_simt_capri, &tm_simt_capri_2bit,
                                                      &tm_simt_capri_1bs, &tm_simt_capri_ce, &tm_simt_lwm, &tm_simt_dpe,
                                                      &tm_simt_dpe_constrained, &tm_simt_dwf, &tm_simt_dwf_wb,
                                                      &tm_simt_dws};

const tm_simt_mechanism *tm_simt_find(const char *name)
{
    for (size_t i = 0; i < sizeof mechanisms / sizeof *mechanisms; i++)
        if (strcmp(mechanisms[i]->name, name) == 0)
            return mechanisms[i];
    return NULL;
}

const tm_simt_mechanism *tm_simt_at(uint32_t i) { return mechanisms[i]; }

uint32_t tm_simt_count(void) { return (uint32_t)(sizeof mechanisms / sizeof *mechanisms); }
