/* catalog.c - PMU instances built from the box tables, and the public catalogue API. */
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "pmon/pmon.h"
#include "access.h"
#include "catalog.h"
#include "generation.h"
#include "sim_load.h"

#define MAX_PMUS 64

static struct pmon_pmu pmus[MAX_PMUS];
static int npmus;
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void add_type(const struct pmon_box_type *t, const struct pmon_generation *gen)
{
	int n = 0;
	while (t->events[n].name)
		n++;
	for (int i = 0; i < t->max_boxes && npmus < MAX_PMUS; i++) {
		struct pmon_pmu *p = &pmus[npmus++];
		p->type = t;
		p->gen = gen;
		p->instance = i;
		p->nevents = n;
		if (t->max_boxes > 1)
			snprintf(p->name, sizeof(p->name), "%s%d", t->pmu_prefix, i);
		else
			snprintf(p->name, sizeof(p->name), "%s", t->pmu_prefix);
	}
}

static void build(void)
{
	for (int g = 0; g < pmon_generation_count(); g++) {
		const struct pmon_generation *gen = pmon_generation_at(g);
		for (int i = 0; i < *gen->nboxes; i++)
			add_type(gen->boxes[i], gen);
	}
	for (int i = 0; i < pmon_core_nboxes; i++)
		add_type(pmon_core_boxes[i], NULL);
}

const struct pmon_pmu *pmon_catalog(int *n)
{
	pthread_once(&once, build);
	if (n)
		*n = npmus;
	return pmus;
}

const struct pmon_pmu *pmon_catalog_pmu(int pmu)
{
	int n;
	const struct pmon_pmu *p = pmon_catalog(&n);
	return (pmu >= 0 && pmu < n) ? &p[pmu] : NULL;
}

int pmon_catalog_find(const char *name)
{
	int n;
	const struct pmon_pmu *p = pmon_catalog(&n);
	for (int i = 0; i < n; i++)
		if (!strcasecmp(p[i].name, name))
			return i;
	return PMON_ENOEVNT;
}

int pmon_box_event(const struct pmon_box_type *t, const char *name)
{
	for (int i = 0; t->events[i].name; i++)
		if (!strcasecmp(t->events[i].name, name))
			return i;
	for (const struct pmon_alias *a = t->aliases; a && a->name; a++)
		if (!a->umask && !strcasecmp(a->name, name))
			for (int i = 0; t->events[i].name; i++)
				if (!strcmp(t->events[i].name, a->event))
					return i;
	return PMON_ENOEVNT;
}

int pmon_box_umask(const struct pmon_box_type *t, const struct pmon_event *ev, const char *name)
{
	for (int u = 0; u < ev->numasks; u++)
		if (!strcasecmp(ev->umasks[u].name, name))
			return u;
	for (const struct pmon_alias *a = t->aliases; a && a->name; a++)
		if (a->umask && !strcmp(a->event, ev->name) && !strcasecmp(a->name, name))
			for (int u = 0; u < ev->numasks; u++)
				if (!strcmp(ev->umasks[u].name, a->umask))
					return u;
	return -1;
}

int pmon_catalog_event(const struct pmon_pmu *p, const char *name)
{
	return pmon_box_event(p->type, name);
}

static int field_needed(const struct pmon_box_type *t, const struct pmon_event *ev, int field)
{
	uint32_t need = ev->fields;
	for (int u = 0; u < ev->numasks; u++)
		need |= ev->umasks[u].fields;
	if (field == PMON_FIELD_EVENT)
		return ev->fields != 0;
	return field < t->nfields && (need & (1u << field));
}

int pmon_catalog_mod_ok(const struct pmon_box_type *t, const struct pmon_event *ev, int mod)
{
	const struct pmon_modifier *m = &t->mods[mod];
	if (ev->flags & PMON_EV_FIXED)
		return 0;
	if (ev->mods & (1u << mod))
		return 1;
	return m->kind != PMON_MOD_CTL && field_needed(t, ev, m->field);
}

/* ---------------------------------------------------------------- public API */

int pmon_pmu_count(void)
{
	int n;
	pmon_catalog(&n);
	return n;
}

int pmon_pmu_get(int pmu, pmon_pmu_info_t *out)
{
	const struct pmon_pmu *p = pmon_catalog_pmu(pmu);
	if (!p || !out)
		return PMON_EINVAL;
	out->name = p->name;
	out->box_type = p->type->name;
	out->desc = p->type->desc;
	out->instance = p->instance;
	out->ncounters = p->type->ncounters;
	out->width = p->type->width;
	out->has_fixed = p->type->has_fixed;
	out->per_cpu = p->type->space == PMON_SPACE_CORE;
	/* a core PMU's filter registers are its RSP registers */
	out->offcore_regs = p->type->space == PMON_SPACE_CORE ? p->type->nfregs : 0;
	out->offcore_per_core = out->offcore_regs > 0 && p->type->rsp_per_core;
	return PMON_OK;
}

int pmon_pmu_find(const char *name)
{
	return name ? pmon_catalog_find(name) : PMON_EINVAL;
}

int pmon_event_count(int pmu)
{
	const struct pmon_pmu *p = pmon_catalog_pmu(pmu);
	return p ? p->nevents : PMON_EINVAL;
}

static const struct pmon_event *event_at(int pmu, int ev, const struct pmon_pmu **pp)
{
	const struct pmon_pmu *p = pmon_catalog_pmu(pmu);
	if (!p || ev < 0 || ev >= p->nevents)
		return NULL;
	if (pp)
		*pp = p;
	return &p->type->events[ev];
}

/* The emulated machine's verdict on an event: with umask um alone (plus the
 * defaults of other groups), or, for um < 0, with its default umasks; an event
 * without defaults is modeled when any of its umasks is. */
/* The catalogue's flag is the emulated machine's answer, asked through its
 * backend ops (a pure question: no machine needs to be open). */
static int sim_models(const char *box, uint64_t ctl, uint64_t filt0)
{
	const uint64_t filt[2] = { filt0, 0 };
	return pmon_sim_load_modeled(box, ctl, filt);
}

/* Umask um with umask um2 (-1: none) of another group, plus the defaults of
 * the remaining groups. */
static int modeled_with(const struct pmon_box_type *t, const struct pmon_event *ev, int um,
			int um2)
{
	uint64_t val = 0, filt0 = 0;

	for (int u = 0; u < ev->numasks; u++) {
		const struct pmon_umask *m = &ev->umasks[u];
		int take = u == um || u == um2 ||
			   ((m->flags & PMON_UM_DEFAULT) && (um < 0 || m->grp != ev->umasks[um].grp) &&
			    (um2 < 0 || m->grp != ev->umasks[um2].grp));
		if (!take)
			continue;
		val |= m->value;
		filt0 |= m->filt_set[0];
	}
	return sim_models(t->name, pmon_event_ctl(ev, val), filt0);
}

static int modeled(const struct pmon_box_type *t, const struct pmon_event *ev, int um)
{
	char box[32];
	int any_default = 0;

	snprintf(box, sizeof(box), "%s%s", t->name, (ev->flags & PMON_EV_FIXED) ? "-fixed" : "");
	if (ev->flags & PMON_EV_FIXED)
		return sim_models(box, 0, 0);
	if (ev->flags & PMON_EV_OFFCORE) {
		/* a request, supplier or snoop bit is modeled when the emulator
		 * drives it in combination with the other groups' bits */
		uint64_t others = 0, mine = 0;
		for (int u = 0; u < ev->numasks; u++) {
			if (um >= 0 && u == um)
				mine = ev->umasks[u].value;
			else if (um < 0 || ev->umasks[u].grp != ev->umasks[um].grp)
				others |= ev->umasks[u].value;
		}
		return sim_models(t->name, pmon_event_ctl(ev, 0), mine | others);
	}
	if (um < 0 && ev->numasks) {
		for (int u = 0; u < ev->numasks; u++)
			any_default |= (ev->umasks[u].flags & PMON_UM_DEFAULT) != 0;
		if (!any_default) {
			for (int u = 0; u < ev->numasks; u++)
				if (modeled(t, ev, u))
					return 1;
			return 0;
		}
	}
	if (modeled_with(t, ev, um, -1))
		return 1;
	/* a umask that needs one of another group (CBo OPCODE and the OPC_
	 * opcodes) is modeled when some such pair is */
	for (int u = 0; um >= 0 && u < ev->numasks; u++)
		if (ev->umasks[u].grp != ev->umasks[um].grp && modeled_with(t, ev, um, u))
			return 1;
	return 0;
}

int pmon_event_get(int pmu, int ev, pmon_event_info_t *out)
{
	const struct pmon_pmu *p;
	const struct pmon_event *e = event_at(pmu, ev, &p);
	if (!e || !out)
		return PMON_EINVAL;
	out->name = e->name;
	out->desc = e->desc;
	out->code = e->code | (e->ext ? 0x100u : 0);
	out->cntmask = e->cntmask;
	out->fixed = (e->flags & PMON_EV_FIXED) != 0;
	out->numasks = e->numasks;
	out->modeled = modeled(p->type, e, -1);
	return PMON_OK;
}

int pmon_umask_get(int pmu, int ev, int um, pmon_umask_info_t *out)
{
	const struct pmon_pmu *p;
	const struct pmon_event *e = event_at(pmu, ev, &p);
	if (!e || !out || um < 0 || um >= e->numasks)
		return PMON_EINVAL;
	out->modeled = modeled(p->type, e, um);
	out->name = e->umasks[um].name;
	out->desc = e->umasks[um].desc;
	out->value = e->umasks[um].value;
	out->is_default = (e->umasks[um].flags & PMON_UM_DEFAULT) != 0;
	return PMON_OK;
}

static const char qual_socket_desc[] = "socket whose box counts (default 0)";
static const char qual_cpu_desc[] = "CPU to count on; for uncore boxes, selects that CPU's socket";

int pmon_mod_count(int pmu, int ev)
{
	const struct pmon_pmu *p;
	const struct pmon_event *e = event_at(pmu, ev, &p);
	if (!e)
		return PMON_EINVAL;
	int n = 0;
	for (int m = 0; m < p->type->nmods; m++)
		n += pmon_catalog_mod_ok(p->type, e, m);
	return n + (p->type->space == PMON_SPACE_CORE ? 1 : 2);
}

int pmon_mod_get(int pmu, int ev, int i, pmon_mod_info_t *out)
{
	const struct pmon_pmu *p;
	const struct pmon_event *e = event_at(pmu, ev, &p);
	if (!e || !out || i < 0)
		return PMON_EINVAL;
	for (int m = 0; m < p->type->nmods; m++) {
		if (!pmon_catalog_mod_ok(p->type, e, m))
			continue;
		if (i-- == 0) {
			out->name = p->type->mods[m].name;
			out->desc = p->type->mods[m].desc;
			out->min = p->type->mods[m].min;
			out->max = p->type->mods[m].max;
			return PMON_OK;
		}
	}
	/* qualifiers: core PMUs take cpu= only; uncore boxes socket= and cpu= */
	if (p->type->space != PMON_SPACE_CORE && i-- == 0) {
		out->name = "socket";
		out->desc = qual_socket_desc;
		out->min = 0;
		out->max = 7;
		return PMON_OK;
	}
	if (i == 0) {
		out->name = "cpu";
		out->desc = qual_cpu_desc;
		out->min = 0;
		out->max = 4095;
		return PMON_OK;
	}
	return PMON_EINVAL;
}
