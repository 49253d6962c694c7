/*
 * encode_umask.c - an event's umasks in an encoding: the ones a name gives,
 * the rules that combine them (tables.h: groups, exclusive umasks, defaults,
 * groups that must not stay empty), and the control and filter words they
 * give.  No register is touched.
 */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "pmon/pmon.h"
#include "catalog.h"
#include "encode_state.h"
#include "why.h"

static void list_umasks(const struct pmon_event *ev, char *buf, size_t len)
{
	size_t n = 0;
	buf[0] = 0;
	for (int u = 0; u < ev->numasks && n + 1 < len; u++)
		n += (size_t)snprintf(buf + n, len - n, "%s%s", u ? ", " : "", ev->umasks[u].name);
	if (n >= len && len > 4)
		strcpy(buf + len - 4, "...");
}

/* The filter word an offcore event's response bits go to (its rsp field's). */
static int offcore_word(const struct pmon_box_type *t, const struct pmon_event *ev)
{
	for (int f = 0; f < t->nfields; f++)
		if (ev->fields & (1u << f))
			return t->fields[f].word;
	return 0;
}

/* A name attribute that is not NAME=VALUE: one of the event's umasks. */
int pmon_enc_parse_umask(struct encode_state *st, const char *attr)
{
	const struct pmon_event *ev = st->ev;
	char umlist[512];
	int found = pmon_box_umask(st->t, ev, attr);
	if (found < 0) {
		int exists;
		if (pmon_enc_find_mod(st->t, ev, 0, attr, &exists) >= 0 || exists)
			return pmon_why(st->err, st->errlen, PMON_EQUAL,
					"modifier '%s' needs a value ('%s=N')", attr, attr);
		if (!ev->numasks)
			return pmon_why(st->err, st->errlen, PMON_EUMASK,
					"event %s takes no umask, but '%s' was given", ev->name, attr);
		list_umasks(ev, umlist, sizeof(umlist));
		return pmon_why(st->err, st->errlen, PMON_EUMASK,
				"umask '%s' is not valid for %s (valid: %s)", attr, ev->name, umlist);
	}
	if (st->um_chosen & (1ull << found))
		return pmon_why(st->err, st->errlen, PMON_EUMASK, "umask %s given twice",
				ev->umasks[found].name);
	st->um_chosen |= 1ull << found;
	st->grp_given |= 1u << ev->umasks[found].grp;
	return PMON_OK;
}

/* Phase 2: the umask rules: exclusivity inside a group, defaults for groups
 * nothing was named in, groups that must not stay empty. */
int pmon_enc_umask_rules(struct encode_state *st)
{
	const struct pmon_event *ev = st->ev;
	char umlist[512];
	for (int u = 0; u < ev->numasks; u++) {
		const struct pmon_umask *um = &ev->umasks[u];
		if (!(st->um_chosen & (1ull << u)) || !(um->flags & PMON_UM_EXCL))
			continue;
		for (int w = 0; w < ev->numasks; w++)
			if (w != u && (st->um_chosen & (1ull << w)) && ev->umasks[w].grp == um->grp)
				return pmon_why(st->err, st->errlen, PMON_EUMASK,
						"umask %s of %s cannot be combined with %s",
						um->name, ev->name, ev->umasks[w].name);
	}
	for (int u = 0; u < ev->numasks; u++) {
		const struct pmon_umask *um = &ev->umasks[u];
		if ((um->flags & PMON_UM_DEFAULT) && !(st->grp_given & (1u << um->grp)))
			st->um_chosen |= 1ull << u;
	}
	uint32_t need_grps = ev->need_grps | ((ev->flags & PMON_EV_NEED_UM) ? 1u : 0);
	for (int g = 0; g < 8; g++) {
		if (!(need_grps & (1u << g)))
			continue;
		int have = 0;
		for (int u = 0; u < ev->numasks; u++)
			if ((st->um_chosen & (1ull << u)) && ev->umasks[u].grp == g)
				have = 1;
		if (have)
			continue;
		size_t n = 0;
		umlist[0] = 0;
		for (int u = 0; u < ev->numasks && n + 1 < sizeof(umlist); u++)
			if (ev->umasks[u].grp == g)
				n += (size_t)snprintf(umlist + n, sizeof(umlist) - n, "%s%s",
						      n ? ", " : "", ev->umasks[u].name);
		return pmon_why(st->err, st->errlen, PMON_EUMASK,
				"%s needs a umask%s from: %s", ev->name,
				(ev->flags & PMON_EV_OFFCORE) ? (g == 0 ? " (request)" : g == 1 ? " (response)" : "") : "",
				umlist);
	}
	return PMON_OK;
}

/* Phase 3: the control word and filter words the chosen umasks give; a
 * umask that writes a filter field is taken only where the event, or
 * another umask chosen with it, reads that field (OPC_RFO with OPCODE,
 * never with EVICTION: the filter is the box's, shared by its counters);
 * an offcore response's umasks follow their own rules (phase 2). */
int pmon_enc_umask_words(struct encode_state *st)
{
	const struct pmon_event *ev = st->ev;
	const struct pmon_box_type *t = st->t;
	uint64_t umask = 0;
	for (int u = 0; u < ev->numasks; u++) {
		if (!(st->um_chosen & (1ull << u)))
			continue;
		const struct pmon_umask *um = &ev->umasks[u];
		if (ev->flags & PMON_EV_OFFCORE)
			st->filt[offcore_word(t, ev)] |= um->value;
		else
			umask |= um->value;
		st->filt[0] |= um->filt_set[0];
		st->filt[1] |= um->filt_set[1];
		st->filled |= pmon_umask_writes(t, um);
		st->ctl_um |= um->ctl_set;
	}
	uint32_t reads = (ev->flags & PMON_EV_OFFCORE) ? ~0u : ev->fields;  /* offcore: own rules */
	for (int u = 0; u < ev->numasks; u++)
		if (st->um_chosen & (1ull << u))
			reads |= ev->umasks[u].fields & ((ev->umasks[u].flags & PMON_UM_SELF) ? ~0u :
					~pmon_umask_writes(t, &ev->umasks[u]));
	for (int u = 0; u < ev->numasks; u++) {
		uint32_t unread = (st->um_chosen & (1ull << u)) ?
				  pmon_umask_writes(t, &ev->umasks[u]) & ~reads : 0;
		if (unread)
			return pmon_why(st->err, st->errlen, PMON_EUMASK,
					"umask '%s' sets filter field %s, which %s with the other "
					"umasks given does not use", ev->umasks[u].name,
					t->fields[__builtin_ctz(unread)].name, ev->name);
	}
	if ((ev->flags & PMON_EV_FIXED) && st->nmods)
		return pmon_why(st->err, st->errlen, PMON_EQUAL,
				"%s counts on the fixed counter and takes no modifier ('%s' given)",
				ev->name, st->modname[0]);
	if (ev->flags & PMON_EV_OFFCORE)
		st->filled |= ev->fields;
	st->ctl = pmon_event_ctl(ev, umask) | st->ctl_um;
	return PMON_OK;
}
