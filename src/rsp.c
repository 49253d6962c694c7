/*
 * rsp.c - give offcore-response events an RSP register (rsp.h says how).
 *
 * A slot is a filter word of the core box type that an offcore event counts
 * through: word w <-> the event whose RSP field lies in word w (SNB-EP: word
 * 0 = MSR_OFFCORE_RSP_0 with OFFCORE_RESPONSE_0, event select 0xB7; word 1 =
 * MSR_OFFCORE_RSP_1 with OFFCORE_RESPONSE_1, 0xBB).  Moving an event from
 * one slot to another rewrites what its encoding programs, so the session
 * needs nothing else: the control word's event select, the RSP value's
 * filter word, the filter fields (each field of the old word becomes the
 * field of the same bits in the new one) and the event index.
 */
#include <stdio.h>
#include <stdlib.h>

#include "rsp.h"
#include "why.h"

static const struct pmon_box_type *type_of(const pmon_encoding_t *e)
{
	return pmon_catalog_pmu(e->pmu)->type;
}

/* The filter word of event ev's RSP field, or -1 (not an offcore event). */
static int event_word(const struct pmon_box_type *t, int ev)
{
	const struct pmon_event *x = &t->events[ev];
	if (t->space != PMON_SPACE_CORE || !(x->flags & PMON_EV_OFFCORE))
		return -1;
	for (int f = 0; f < t->nfields; f++)
		if (x->fields & (1u << f))
			return t->fields[f].word < PMON_FILTER_WORDS ? t->fields[f].word : -1;
	return -1;
}

int pmon_rsp_slot(const pmon_encoding_t *e)
{
	return event_word(type_of(e), e->event);
}

/* The event that counts through slot w, or -1 (no such register). */
static int slot_event(const struct pmon_box_type *t, int w)
{
	for (int ev = 0; t->events[ev].name; ev++)
		if (event_word(t, ev) == w)
			return ev;
	return -1;
}

static int nslots(const struct pmon_box_type *t)
{
	int k = 0;
	for (int w = 0; w < PMON_FILTER_WORDS; w++)
		k += slot_event(t, w) >= 0;
	return k;
}

static const char *reg_name(const struct pmon_box_type *t, int w)
{
	for (int r = 0; r < t->nfregs; r++)
		if (t->fregs[r].word == w)
			return t->fregs[r].name;
	return "an offcore-response register";
}

/* The MSR of slot w's register. */
static unsigned reg_msr(const struct pmon_box_type *t, int w)
{
	for (int r = 0; r < t->nfregs; r++)
		if (t->fregs[r].word == w)
			return t->fregs[r].msr;
	return 0;
}

/* Do a and b program the same RSP registers (one CPU, or one core where
 * its hyperthreads share them)? */
static int same_regs(const struct pmon_machine *m, const pmon_encoding_t *a,
		     const pmon_encoding_t *b)
{
	if (a->pmu != b->pmu)
		return 0;
	if (a->cpu == b->cpu)
		return 1;
	if (!type_of(a)->rsp_per_core || a->cpu < 0 || b->cpu < 0 ||
	    a->cpu >= m->topo.ncpus || b->cpu >= m->topo.ncpus)
		return 0;
	return m->topo.cpu_socket[a->cpu] == m->topo.cpu_socket[b->cpu] &&
	       m->topo.cpu_core[a->cpu] >= 0 &&
	       m->topo.cpu_core[a->cpu] == m->topo.cpu_core[b->cpu];
}

/* Rewrite e from slot `from` to slot `to`. */
static void move(pmon_encoding_t *e, const struct pmon_box_type *t, int from, int to)
{
	uint32_t fields = 0;
	for (int f = 0; f < t->nfields; f++) {
		if (!(e->fields_used & (1u << f)))
			continue;
		const struct pmon_filter_field *a = &t->fields[f];
		if (a->word != from) {
			fields |= 1u << f;
			continue;
		}
		for (int g = 0; g < t->nfields; g++)
			if (t->fields[g].word == to && t->fields[g].shift == a->shift &&
			    t->fields[g].width == a->width)
				fields |= 1u << g;
	}
	int ev = slot_event(t, to);
	e->fields_used = fields;
	e->filt[to] = e->filt[from];
	e->filt[from] = 0;
	e->filt_used = (e->filt_used & ~(1u << from)) | (1u << to);
	e->ctl = (e->ctl & ~0xffull) | t->events[ev].code;
	e->event = ev;
}

/* e finds every slot holding another mask: say which, and for whom. */
static int refuse(pmon_encoding_t *const *ev, const pmon_encoding_t *e, const int *holder,
		  uint64_t mask, char *err, size_t errlen)
{
	const struct pmon_box_type *t = type_of(e);
	char held[640] = "", where[96];
	for (int w = 0; w < PMON_FILTER_WORDS; w++)
		if (holder[w] >= 0)
			pmon_why_add(held, sizeof(held), ", ", "%s (MSR 0x%x) = 0x%llx (%s)", reg_name(t, w),
				     reg_msr(t, w), (unsigned long long)ev[holder[w]]->filt[w],
				     ev[holder[w]]->name);
	int k = nslots(t);
	if (t->rsp_per_core)
		snprintf(where, sizeof(where), "the core of CPU %d (its hyperthreads share %s)",
			 e->cpu, k == 1 ? "it" : "them");
	else
		snprintf(where, sizeof(where), "CPU %d", e->cpu);
	if (k == 1)
		return pmon_why(err, errlen, PMON_ECONFLICT,
				"%s needs offcore-response mask 0x%llx, but %s has only one "
				"offcore-response register, holding another mask: %s; count it in a "
				"separate event set", e->name, (unsigned long long)mask, where, held);
	return pmon_why(err, errlen, PMON_ECONFLICT,
			"%s needs offcore-response mask 0x%llx, but %s has only %d offcore-response "
			"registers, all holding other masks: %s; count it in a separate event set",
			e->name, (unsigned long long)mask, where, k, held);
}

int pmon_rsp_place(const struct pmon_machine *m, pmon_encoding_t *const *ev, int n, int nfixed,
		   char *err, size_t errlen)
{
	for (int i = nfixed; i < n; i++) {
		pmon_encoding_t *e = ev[i];
		int own = pmon_rsp_slot(e), to = -1;
		if (own < 0)
			continue;
		const struct pmon_box_type *t = type_of(e);
		uint64_t mask = e->filt[own];
		int holder[PMON_FILTER_WORDS];    /* per slot: the first event using it, or -1 */
		for (int w = 0; w < PMON_FILTER_WORDS; w++)
			holder[w] = -1;
		for (int j = 0; j < i; j++) {
			int w = pmon_rsp_slot(ev[j]);
			if (w >= 0 && holder[w] < 0 && same_regs(m, e, ev[j]))
				holder[w] = j;
		}
		/* 1. a slot with the same mask (its own first), 2. its own slot,
		 * 3. the first free one */
		if (holder[own] >= 0 && ev[holder[own]]->filt[own] == mask)
			to = own;
		for (int w = 0; to < 0 && w < PMON_FILTER_WORDS; w++)
			if (holder[w] >= 0 && ev[holder[w]]->filt[w] == mask)
				to = w;
		if (to < 0 && holder[own] < 0)
			to = own;
		for (int w = 0; to < 0 && w < PMON_FILTER_WORDS; w++)
			if (holder[w] < 0 && slot_event(t, w) >= 0)
				to = w;
		if (to < 0)
			return refuse(ev, e, holder, mask, err, errlen);
		if (to != own)
			move(e, t, own, to);
	}
	return PMON_OK;
}

int pmon_rsp_place_array(const struct pmon_machine *m, pmon_encoding_t *ev, int n, int nfixed,
			 char *err, size_t errlen)
{
	pmon_encoding_t **p = malloc(sizeof(*p) * (size_t)(n > 0 ? n : 1));
	if (!p)
		return pmon_why(err, errlen, PMON_ENOMEM, "out of memory");
	for (int i = 0; i < n; i++)
		p[i] = &ev[i];
	int rc = pmon_rsp_place(m, p, n, nfixed, err, errlen);
	free(p);
	return rc;
}
