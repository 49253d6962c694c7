/*
 * example.c - compose a complete, valid name for an event (and one of its
 * umasks): what a user must add to the bare name for it to encode.
 *
 * Starting from PMU::EVENT[:UMASK], it adds, in this order: one umask for each
 * umask group the event requires but that has none yet; for each filter field
 * the event then needs but nothing fills, a umask that fills it or else the
 * modifier that sets it (value 1, or the lowest matchable address); and cpu=0
 * on per-CPU PMUs.  The result is checked with pmon_encode.
 */
#include <stdio.h>
#include <string.h>

#include "pmon/pmon.h"
#include "catalog.h"

static int fills(const struct pmon_box_type *t, const struct pmon_umask *um, int f)
{
	return (int)(pmon_umask_writes(t, um) >> f) & 1;
}

static int grp_chosen(const struct pmon_event *ev, uint64_t chosen, int g)
{
	for (int u = 0; u < ev->numasks; u++)
		if ((chosen & (1ull << u)) && ev->umasks[u].grp == g)
			return 1;
	return 0;
}

static int grp_default(const struct pmon_event *ev, int g)
{
	for (int u = 0; u < ev->numasks; u++)
		if (ev->umasks[u].grp == g && (ev->umasks[u].flags & PMON_UM_DEFAULT))
			return 1;
	return 0;
}

/* Modifier that sets field f for this event, or -1. */
static int mod_for(const struct pmon_box_type *t, const struct pmon_event *ev, int f)
{
	for (int m = 0; m < t->nmods; m++) {
		const struct pmon_modifier *md = &t->mods[m];
		if (md->kind == PMON_MOD_CTL)
			continue;
		int mf = md->field;
		if (mf == PMON_FIELD_EVENT) {
			mf = -1;
			for (int k = 0; k < t->nfields; k++)
				if (ev->fields & (1u << k)) {
					mf = k;
					break;
				}
		}
		if (mf == f)
			return m;
	}
	return -1;
}

int pmon_event_example(int pmu, int evi, int um, char *buf, size_t len)
{
	const struct pmon_pmu *p = pmon_catalog_pmu(pmu);
	if (!p || evi < 0 || evi >= p->nevents || !buf || !len)
		return PMON_EINVAL;
	const struct pmon_box_type *t = p->type;
	const struct pmon_event *ev = &t->events[evi];
	if (um >= ev->numasks)
		return PMON_EINVAL;

	uint64_t chosen = um >= 0 ? 1ull << um : 0;
	uint32_t need_grps = ev->need_grps | ((ev->flags & PMON_EV_NEED_UM) ? 1u : 0);
	/* a umask that writes a filter field the event does not read (OPC_RFO
	 * on TOR_INSERTS) comes with a sub-event that reads it (OPCODE) */
	uint32_t unread = (um >= 0 && !(ev->flags & PMON_EV_OFFCORE)) ?
			  pmon_umask_writes(t, &ev->umasks[um]) & ~ev->fields : 0;
	for (int g = 0; g < 8 && unread; g++) {
		if (grp_chosen(ev, chosen, g))
			continue;
		for (int u = 0; u < ev->numasks; u++) {
			const struct pmon_umask *x = &ev->umasks[u];
			if (x->grp == g && (x->fields & unread & ~pmon_umask_writes(t, x))) {
				chosen |= 1ull << u;
				unread = 0;
				break;
			}
		}
	}
	for (int g = 0; g < 8; g++) {
		if (!(need_grps & (1u << g)) || grp_chosen(ev, chosen, g) || grp_default(ev, g))
			continue;
		for (int u = 0; u < ev->numasks; u++)
			if (ev->umasks[u].grp == g) {
				chosen |= 1ull << u;
				break;
			}
	}
	/* fields needed by what is chosen (defaults of untouched groups included) */
	uint64_t effective = chosen;
	for (int u = 0; u < ev->numasks; u++)
		if ((ev->umasks[u].flags & PMON_UM_DEFAULT) && !grp_chosen(ev, chosen, ev->umasks[u].grp))
			effective |= 1ull << u;
	uint32_t need = ev->fields, filled = 0;
	if (ev->flags & PMON_EV_OFFCORE)
		filled |= ev->fields;   /* the umask values themselves fill the rsp field */
	for (int u = 0; u < ev->numasks; u++)
		if (effective & (1ull << u)) {
			need |= ev->umasks[u].fields;
			for (int f = 0; f < t->nfields; f++)
				if (fills(t, &ev->umasks[u], f))
					filled |= 1u << f;
		}
	size_t n = (size_t)snprintf(buf, len, "%s::%s", p->name, ev->name);
	for (int u = 0; u < ev->numasks && n < len; u++)
		if (chosen & (1ull << u))
			n += (size_t)snprintf(buf + n, len - n, ":%s", ev->umasks[u].name);
	for (int f = 0; f < t->nfields && n < len; f++) {
		if (!(need & ~filled & (1u << f)))
			continue;
		int added = 0;
		/* a umask of a group not yet chosen that fills the field */
		for (int u = 0; u < ev->numasks && !added; u++) {
			const struct pmon_umask *x = &ev->umasks[u];
			if (fills(t, x, f) && !grp_chosen(ev, chosen, x->grp)) {
				chosen |= 1ull << u;
				filled |= 1u << f;
				n += (size_t)snprintf(buf + n, len - n, ":%s", x->name);
				added = 1;
			}
		}
		if (added)
			continue;
		int m = mod_for(t, ev, f);
		if (m < 0)
			return PMON_EINVAL;
		const struct pmon_modifier *md = &t->mods[m];
		if (md->kind == PMON_MOD_ADDR)
			n += (size_t)snprintf(buf + n, len - n, ":%s=0x%llx", md->name,
					      1ull << md->shift);
		else
			n += (size_t)snprintf(buf + n, len - n, ":%s=%llu", md->name,
					      (unsigned long long)(md->min > 1 ? md->min : 1));
		filled |= 1u << f;
	}
	if (t->space == PMON_SPACE_CORE && n < len)
		n += (size_t)snprintf(buf + n, len - n, ":cpu=0");
	if (n >= len)
		return PMON_EINVAL;
	pmon_encoding_t e;
	char err[256];
	return pmon_encode(buf, 0, 0, &e, err, sizeof(err));
}
