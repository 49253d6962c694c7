/*
 * assign.c - place a set of encoded events on counters, or say why not.
 *
 * Events compete for counters within one box instance on one socket (core
 * PMU: within one CPU).  Each event may use the counters of its cntmask; the
 * assignment is a bipartite matching, found with augmenting paths, so it
 * succeeds whenever any assignment exists.  Filter registers are shared by
 * the whole box (core PMU: the offcore MSRs by both hyperthreads of a core);
 * two events conflict when they need the same filter field with different
 * values, and the refusal names both events and the field.
 */
#include <stdio.h>
#include <string.h>

#include "assign.h"

static uint64_t field_bits(const struct pmon_filter_field *f, const uint64_t *filt)
{
	return (filt[f->word] >> f->shift) & pmon_bits(f->width);
}

/* Same counter group: the same box instance, socket and (core PMU) CPU. */
static int same_counters(const pmon_encoding_t *a, const pmon_encoding_t *b)
{
	return a->pmu == b->pmu && a->socket == b->socket && a->cpu == b->cpu;
}

/* Same filter registers: box-wide for uncore; for the offcore MSRs per
 * logical CPU, or per physical core where the generation shares them. */
static int same_filters(const struct pmon_machine *m, const pmon_encoding_t *a,
			const pmon_encoding_t *b)
{
	if (a->pmu != b->pmu || a->socket != b->socket)
		return 0;
	if (a->cpu < 0 && b->cpu < 0)
		return 1;
	if (a->cpu < 0 || b->cpu < 0)
		return 0;
	if (a->cpu == b->cpu)
		return 1;
	return pmon_catalog_pmu(a->pmu)->type->rsp_per_core &&
	       m->topo.cpu_core[a->cpu] == m->topo.cpu_core[b->cpu];
}

/* Filter words (bit w) an event uses through its fields. */
static uint32_t words_used(const struct pmon_box_type *t, const pmon_encoding_t *e)
{
	uint32_t w = 0;
	for (int f = 0; f < t->nfields; f++)
		if (e->fields_used & (1u << f))
			w |= 1u << t->fields[f].word;
	return w;
}

static int augment(const pmon_encoding_t *const *evs, int i, int n, int *owner,
		   int ncounters, unsigned *seen)
{
	for (int c = 0; c < ncounters; c++) {
		if (!(evs[i]->cntmask & (1u << c)) || (*seen & (1u << c)))
			continue;
		*seen |= 1u << c;
		if (owner[c] < 0 || augment(evs, owner[c], n, owner, ncounters, seen)) {
			owner[c] = i;
			return 1;
		}
	}
	return 0;
}

int pmon_check_filters(const struct pmon_machine *m, const pmon_encoding_t *ev, int n,
		       char *err, size_t errlen)
{
	for (int i = 0; i < n; i++) {
		const struct pmon_box_type *t = pmon_catalog_pmu(ev[i].pmu)->type;
		for (int j = 0; j < i; j++) {
			if (!same_filters(m, &ev[i], &ev[j]))
				continue;
			for (int r = 0; r < t->nfregs; r++) {
				const struct pmon_filter_reg *fr = &t->fregs[r];
				if (!fr->whole || !(words_used(t, &ev[i]) & words_used(t, &ev[j]) & (1u << fr->word)))
					continue;
				if (ev[i].filt[fr->word] != ev[j].filt[fr->word]) {
					snprintf(err, errlen,
						 "%s and %s need different settings of the box's single %s "
						 "(0x%llx vs 0x%llx); count them in separate event sets",
						 ev[j].name, ev[i].name, fr->name,
						 (unsigned long long)ev[j].filt[fr->word],
						 (unsigned long long)ev[i].filt[fr->word]);
					return PMON_ECONFLICT;
				}
			}
			uint32_t both = ev[i].fields_used & ev[j].fields_used;
			for (int f = 0; f < t->nfields; f++) {
				if (!(both & (1u << f)))
					continue;
				if (field_bits(&t->fields[f], ev[i].filt) != field_bits(&t->fields[f], ev[j].filt)) {
					snprintf(err, errlen,
						 "%s and %s need different values in the shared filter field '%s' "
						 "(0x%llx vs 0x%llx); count them in separate event sets",
						 ev[j].name, ev[i].name, t->fields[f].name,
						 (unsigned long long)field_bits(&t->fields[f], ev[j].filt),
						 (unsigned long long)field_bits(&t->fields[f], ev[i].filt));
					return PMON_ECONFLICT;
				}
			}
		}
	}

	return PMON_OK;
}

int pmon_schedule(const struct pmon_machine *m, const pmon_encoding_t *ev, int n,
		  int *counter, char *err, size_t errlen)
{
	int rc = pmon_check_filters(m, ev, n, err, errlen);
	if (rc)
		return rc;

	/* counters, one group at a time */
	int done[PMON_SCHED_MAX] = { 0 };
	if (n > PMON_SCHED_MAX) {
		snprintf(err, errlen, "too many events (%d, at most %d)", n, PMON_SCHED_MAX);
		return PMON_ECONFLICT;
	}
	for (int i = 0; i < n; i++) {
		if (done[i])
			continue;
		const struct pmon_pmu *p = pmon_catalog_pmu(ev[i].pmu);
		const pmon_encoding_t *grp[PMON_SCHED_MAX];
		int idx[PMON_SCHED_MAX], g = 0, fixed_owner = -1;
		for (int j = i; j < n; j++) {
			if (done[j] || !same_counters(&ev[i], &ev[j]))
				continue;
			done[j] = 1;
			if (ev[j].fixed) {
				if (fixed_owner >= 0) {
					snprintf(err, errlen, "%s: the fixed counter is already used by %s",
						 ev[j].name, ev[fixed_owner].name);
					return PMON_ECONFLICT;
				}
				fixed_owner = j;
				counter[j] = -1;
				continue;
			}
			grp[g] = &ev[j];
			idx[g++] = j;
		}
		int owner[32];
		int nc = p->type->ncounters;
		for (int c = 0; c < nc; c++)
			owner[c] = -1;
		for (int k = 0; k < g; k++) {
			unsigned seen = 0;
			if (!augment(grp, k, g, owner, nc, &seen)) {
				unsigned allowed = grp[k]->cntmask & ((1u << nc) - 1);
				snprintf(err, errlen,
					 "%s cannot be placed: %s has %d counters, this event may use "
					 "counter mask 0x%x, and the other %d event(s) in that box already need them",
					 grp[k]->name, p->name, nc, allowed, g - 1);
				return PMON_ECONFLICT;
			}
		}
		for (int c = 0; c < nc; c++)
			if (owner[c] >= 0)
				counter[idx[owner[c]]] = c;
	}
	return PMON_OK;
}
