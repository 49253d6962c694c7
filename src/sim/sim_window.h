/*
 * sim_window.h - a PMON block of a PCI box as a read plan asks for it at
 * every read (sim_pcibox_window works it out once, sim_pcibox.c), and its
 * read, inline in the batch reads that take no lock (sim_access.c).
 */
#ifndef PMON_SIM_WINDOW_H
#define PMON_SIM_WINDOW_H

#include <stdint.h>
#include <string.h>

#include "sim_internal.h"

/* The wanted dwords (all when want is 0) as steps: up to pairs_end 8-byte
 * copies (a counter whose two dwords are both wanted: they are its bytes in
 * order, low first; or two wanted dwords without a register, from a zero),
 * then up to end the other wanted dwords, 4 bytes each from bit shift up of
 * their register (half a counter, a control, or 0). */
struct sim_window {
	struct sim_window *next;
	const struct sim_box *b;
	uint32_t off;
	int ndw;
	uint64_t want;
	const struct sim_window_step *pairs_end, *end;   /* in step[] */
	struct sim_window_step {
		const uint64_t *src;
		uint16_t at;            /* first dword */
		uint8_t shift;
	} step[];
};

/* Every wanted dword stored once (BOX_CTL, write-only, reads 0 as a dword
 * without a register does).  Also called without the machine's lock
 * (sim_access.c), hence the atomic loads. */
static inline void sim_window_read(const struct sim_window *w, uint32_t *val)
{
	const struct sim_window_step *s = w->step;
	for (; s < w->pairs_end; s++) {
		uint64_t v = __atomic_load_n(s->src, __ATOMIC_RELAXED);
		memcpy(val + s->at, &v, 8);
	}
	for (; s < w->end; s++)
		val[s->at] = (uint32_t)(__atomic_load_n(s->src, __ATOMIC_RELAXED) >> s->shift);
}

#endif
