/*
 * tables_check.h - lookups into the declarative box tables (src/tables.h)
 * for the table tests, and the known-value checks they share.
 *
 * The tc_* functions (tables_check.c) only look things up and compute; they
 * record nothing.  The tc_check_* helpers below record their results with
 * CHECK, in the counters of the test program that includes this header
 * (check.h keeps one pair per program).
 *
 * The structural rules every box table must obey are checked once, for every
 * box type, by test_tables_structure.c; the test_tables_<boxes>.c programs
 * check the known values of particular boxes.
 */
#ifndef PMON_CTESTS_TABLES_CHECK_H
#define PMON_CTESTS_TABLES_CHECK_H

#include <stdint.h>

#include "check.h"
#include "tables.h"

int tc_count_events(const struct pmon_box_type *t);
/* NULL when absent (or, for tc_find_umask and tc_umask_of, when e is NULL). */
const struct pmon_event *tc_find_event(const struct pmon_box_type *t, const char *name);
const struct pmon_umask *tc_find_umask(const struct pmon_event *e, const char *name);
const struct pmon_umask *tc_umask_of(const struct pmon_box_type *t, const char *ev, const char *um);
/* Index of the first field / modifier of that name, or -1. */
int tc_field_index(const struct pmon_box_type *t, const char *name);
int tc_mod_index(const struct pmon_box_type *t, const char *name);

/* The modifier a name resolves to for an event: the entries of that name
 * enabled by the event's mods bits (or, for filter and address modifiers, by
 * a field the event needs).  Returns the index, -1 if none, -2 if ambiguous. */
int tc_resolve_mod(const struct pmon_box_type *t, const struct pmon_event *e, const char *name);

/* The bits of one field in its filter word, and the union over the fields
 * (bit i = field i) that lie in filter word `word`. */
uint64_t tc_field_bits(const struct pmon_filter_field *f);
uint64_t tc_fields_mask(const struct pmon_box_type *t, uint32_t fields, int word);
/* Union of the valid bits of the box's filter registers of filter word `word`. */
uint64_t tc_valid_bits(const struct pmon_box_type *t, int word);

/* ctl and filt[0..1] of an event named without umasks or modifiers: the
 * event code plus the default umask of every group (tables.h rules). */
void tc_default_encoding(const struct pmon_event *e, uint64_t *ctl, uint64_t filt[2]);

/* Non-empty, one line, at most max characters. */
int tc_one_line(const char *s, int max);
int tc_lowest_bit(uint32_t v);   /* -1 for 0 */
int tc_in_list(const char *const *list, int n, const char *name);

/* ------------------------------------------------ known-value checks */

/* Umask um of e exists with this value and exactly these flags. */
static inline void tc_check_umask(const struct pmon_event *e, const char *um, uint64_t value,
				  uint32_t flags)
{
	const struct pmon_umask *m = tc_find_umask(e, um);
	CHECK(m != NULL, "%s: umask %s missing", e ? e->name : "?", um);
	if (!m)
		return;
	CHECK_EQ_U64(m->value, value, um);
	CHECK_EQ_U64(m->flags, flags, um);
}

/* Umask ev:um exists with this value (flags not looked at). */
static inline void tc_check_umask_value(const struct pmon_box_type *t, const char *ev, const char *um,
					uint64_t value)
{
	const struct pmon_umask *u = tc_umask_of(t, ev, um);
	CHECK(u != NULL, "%s:%s present", ev, um);
	if (u)
		CHECK(u->value == value, "%s:%s = 0x%llx, want 0x%llx", ev, um,
		      (unsigned long long)u->value, (unsigned long long)value);
}

/* The event, named alone, encodes to this ctl and filt[0]. */
static inline void tc_check_default(const struct pmon_box_type *t, const char *name, uint64_t ctl,
				    uint64_t filt0)
{
	const struct pmon_event *e = tc_find_event(t, name);
	uint64_t c, f[2];
	CHECK(e != NULL, "%s missing", name);
	if (!e)
		return;
	tc_default_encoding(e, &c, f);
	CHECK_EQ_U64(c, ctl, name);
	CHECK_EQ_U64(f[0], filt0, name);
}

/* Expected identity of every event of a box: name, code, ext, cntmask. */
struct tc_exp_ev { const char *name; uint8_t code, ext; uint32_t cntmask; };

/* The box has exactly these n events, with these identities. */
static inline void tc_check_event_list(const struct pmon_box_type *t, const struct tc_exp_ev *x, int n)
{
	CHECK_EQ_INT(tc_count_events(t), n, t->name);
	for (int i = 0; i < n; i++) {
		const struct pmon_event *e = tc_find_event(t, x[i].name);
		CHECK(e != NULL, "%s: event %s present", t->name, x[i].name);
		if (!e)
			continue;
		CHECK(e->code == x[i].code && e->ext == x[i].ext, "%s: code 0x%x ext %d, want 0x%x ext %d",
		      x[i].name, e->code, e->ext, x[i].code, x[i].ext);
		CHECK(e->cntmask == x[i].cntmask, "%s: cntmask 0x%x, want 0x%x", x[i].name, e->cntmask,
		      x[i].cntmask);
	}
}

#endif
