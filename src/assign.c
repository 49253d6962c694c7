/*
 * assign.c - place a set of encoded events on counters, or say why not.
 *
 * Events compete for counters within one box instance on one socket (core
 * PMU: within one CPU).  Each event may use the counters of its cntmask; the
 * assignment is a bipartite matching, found with augmenting paths, so it
 * succeeds whenever any assignment exists.  Filter registers are shared by
 * the whole box (core PMU: the offcore MSRs by both hyperthreads of a core);
 * two events conflict when they need the same filter field with different
 * values, and the refusal names both events and the field.  The offcore-
 * response registers are the exception: a CPU's pair is a resource of two
 * slots that offcore events share or move between (rsp.c) before the
 * filters are compared.
 */
#include <stdio.h>
#include <string.h>

#include "assign.h"
#include "rsp.h"
#include "why.h"

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

/* Do events a and b (b added earlier) disagree on a filter they share?
 * PMON_ECONFLICT with a message naming both, or PMON_OK. */
static int pair_conflict(const struct pmon_machine *m, const pmon_encoding_t *a,
			 const pmon_encoding_t *b, char *err, size_t errlen)
{
	if (!same_filters(m, a, b))
		return PMON_OK;
	const struct pmon_box_type *t = pmon_catalog_pmu(a->pmu)->type;
	for (int r = 0; r < t->nfregs; r++) {
		const struct pmon_filter_reg *fr = &t->fregs[r];
		if (!fr->whole || !(words_used(t, a) & words_used(t, b) & (1u << fr->word)))
			continue;
		if (a->filt[fr->word] != b->filt[fr->word])
			return pmon_why(err, errlen, PMON_ECONFLICT,
					"%s and %s need different settings of the box's single %s "
					"(0x%llx vs 0x%llx); count them in separate event sets",
					b->name, a->name, fr->name,
					(unsigned long long)b->filt[fr->word],
					(unsigned long long)a->filt[fr->word]);
	}
	uint32_t both = a->fields_used & b->fields_used;
	for (int f = 0; f < t->nfields; f++) {
		if (!(both & (1u << f)))
			continue;
		if (field_bits(&t->fields[f], a->filt) != field_bits(&t->fields[f], b->filt))
			return pmon_why(err, errlen, PMON_ECONFLICT,
					"%s and %s need different values in the shared filter field '%s' "
					"(0x%llx vs 0x%llx); count them in separate event sets",
					b->name, a->name, t->fields[f].name,
					(unsigned long long)field_bits(&t->fields[f], b->filt),
					(unsigned long long)field_bits(&t->fields[f], a->filt));
	}
	return PMON_OK;
}

int pmon_check_filters(const struct pmon_machine *m, const pmon_encoding_t *ev, int n,
		       char *err, size_t errlen)
{
	for (int i = 0; i < n; i++)
		for (int j = 0; j < i; j++) {
			int rc = pair_conflict(m, &ev[i], &ev[j], err, errlen);
			if (rc)
				return rc;
		}
	return PMON_OK;
}

/* Place one counter group: the events idx[0..g-1] of ev (in that order), all
 * of one box instance.  counter[idx[k]] receives the counter (-1: fixed). */
static int place_group(const pmon_encoding_t *const *ev, const int *idx, int g, int *counter,
		       char *err, size_t errlen)
{
	const struct pmon_pmu *p = pmon_catalog_pmu(ev[idx[0]]->pmu);
	const pmon_encoding_t *grp[PMON_SCHED_MAX];
	int gidx[PMON_SCHED_MAX], ng = 0, fixed_owner = -1;
	for (int k = 0; k < g; k++) {
		int j = idx[k];
		if (ev[j]->fixed) {
			if (fixed_owner >= 0)
				return pmon_why(err, errlen, PMON_ECONFLICT,
						"%s: the fixed counter is already used by %s",
						ev[j]->name, ev[fixed_owner]->name);
			fixed_owner = j;
			counter[j] = -1;
			continue;
		}
		grp[ng] = ev[j];
		gidx[ng++] = j;
	}
	int owner[32];
	int nc = p->type->ncounters;
	for (int c = 0; c < nc; c++)
		owner[c] = -1;
	for (int k = 0; k < ng; k++) {
		unsigned seen = 0;
		if (!augment(grp, k, ng, owner, nc, &seen)) {
			unsigned allowed = grp[k]->cntmask & ((1u << nc) - 1);
			return pmon_why(err, errlen, PMON_ECONFLICT,
					"%s cannot be placed: %s has %d counters, this event may use "
					"counter mask 0x%x, and the other %d event(s) in that box already need them",
					grp[k]->name, p->name, nc, allowed, ng - 1);
		}
	}
	for (int c = 0; c < nc; c++)
		if (owner[c] >= 0)
			counter[gidx[owner[c]]] = c;
	return PMON_OK;
}

static int too_many(int n, char *err, size_t errlen)
{
	return pmon_why(err, errlen, PMON_ECONFLICT, "too many events (%d, at most %d)", n,
			PMON_SCHED_MAX);
}

int pmon_schedule(const struct pmon_machine *m, pmon_encoding_t *ev, int n,
		  int *counter, char *err, size_t errlen)
{
	int rc = pmon_rsp_place_array(m, ev, n, 0, err, errlen);
	if (rc || (rc = pmon_check_filters(m, ev, n, err, errlen)))
		return rc;
	if (n > PMON_SCHED_MAX)
		return too_many(n, err, errlen);
	const pmon_encoding_t *evp[PMON_SCHED_MAX];
	for (int i = 0; i < n; i++)
		evp[i] = &ev[i];
	/* counters, one group at a time */
	int done[PMON_SCHED_MAX] = { 0 };
	for (int i = 0; i < n; i++) {
		if (done[i])
			continue;
		int idx[PMON_SCHED_MAX], g = 0;
		for (int j = i; j < n; j++)
			if (!done[j] && same_counters(&ev[i], &ev[j])) {
				done[j] = 1;
				idx[g++] = j;
			}
		if ((rc = place_group(evp, idx, g, counter, err, errlen)))
			return rc;
	}
	return PMON_OK;
}

int pmon_schedule_add(const struct pmon_machine *m, pmon_encoding_t *const *ev, int n,
		      int *counter, char *err, size_t errlen)
{
	const pmon_encoding_t *x = ev[n - 1];
	int rc, idx[PMON_SCHED_MAX], g = 0;
	if ((rc = pmon_rsp_place(m, ev, n, n - 1, err, errlen)))
		return rc;
	for (int j = 0; j < n - 1; j++)
		if ((rc = pair_conflict(m, x, ev[j], err, errlen)))
			return rc;
	if (n > PMON_SCHED_MAX)
		return too_many(n, err, errlen);
	for (int j = 0; j < n; j++)
		if (same_counters(x, ev[j]))
			idx[g++] = j;
	return place_group((const pmon_encoding_t *const *)ev, idx, g, counter, err, errlen);
}
