/*
 * encode_filter.c - an encoding's modifiers and filter words: a modifier's
 * value into the control word or its filter field (range, width, address
 * bits), every filter field the event needs given a value, no reserved bit
 * set, and a whole-register matcher owned whole.  No register is touched.
 */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "pmon/pmon.h"
#include "catalog.h"
#include "encode_state.h"
#include "parse.h"
#include "why.h"

/* The field index a filter modifier targets for this event, or -1. */
int pmon_enc_mod_field(const struct pmon_box_type *t, const struct pmon_event *ev,
		     const struct pmon_modifier *m)
{
	if (m->kind == PMON_MOD_CTL)
		return -1;
	if (m->field != PMON_FIELD_EVENT)
		return m->field < t->nfields ? m->field : -1;
	for (int f = 0; f < t->nfields; f++)
		if (ev->fields & (1u << f))
			return f;
	return -1;
}

/* Resolve "name" among the box modifiers this event accepts; among entries of
 * one name the first accepted one wins (PCU occupancy events use their own
 * e/i entries). */
int pmon_enc_find_mod(const struct pmon_box_type *t, const struct pmon_event *ev,
		    uint32_t need, const char *name, int *exists)
{
	*exists = 0;
	for (int m = 0; m < t->nmods; m++) {
		const struct pmon_modifier *md = &t->mods[m];
		if (strcasecmp(md->name, name))
			continue;
		*exists = 1;
		if (ev->flags & PMON_EV_FIXED)
			continue;
		if (ev->mods & (1u << m))
			return m;
		int f = pmon_enc_mod_field(t, ev, md);
		if (md->kind != PMON_MOD_CTL && f >= 0 && (need & (1u << f)))
			return m;
	}
	return -1;
}

static uint32_t chosen_fields(const struct encode_state *st)
{
	uint32_t need = st->ev->fields;
	for (int u = 0; u < st->ev->numasks; u++)
		if (st->um_chosen & (1ull << u))
			need |= st->ev->umasks[u].fields;
	return need;
}

/* One modifier's value into the control word or its filter field. */
static int apply_modifier(struct encode_state *st, const char *name, const char *val)
{
	const struct pmon_event *ev = st->ev;
	const struct pmon_box_type *t = st->t;
	int exists;
	int m = pmon_enc_find_mod(t, ev, st->need, name, &exists);
	if (m < 0) {
		if (!exists)
			return pmon_why(st->err, st->errlen, PMON_EQUAL,
					"unknown modifier '%s' for %s",
					name, st->pmu_name);
		return pmon_why(st->err, st->errlen, PMON_EQUAL,
				"modifier '%s' does not apply to %s%s",
				name, ev->name,
				t->mods[0].kind == PMON_MOD_CTL && ev->numasks ? " with the umasks given" : "");
	}
	const struct pmon_modifier *md = &t->mods[m];
	if (st->mod_given & (1ull << m))
		return pmon_why(st->err, st->errlen, PMON_EQUAL,
				"modifier '%s' given twice", md->name);
	uint64_t v;
	if (pmon_parse_u64(val, &v))
		return pmon_why(st->err, st->errlen, PMON_EQUAL,
				"malformed value '%s' for %s= (expected a number)", val, md->name);
	if (md->kind != PMON_MOD_ADDR && (v < md->min || v > md->max))
		return pmon_why(st->err, st->errlen, PMON_ERANGE,
				"%s=%s out of range %llu-%llu for %s",
				md->name, val, (unsigned long long)md->min,
				(unsigned long long)md->max, ev->name);
	st->mod_given |= 1ull << m;
	st->mod_val[m] = v;
	if (md->kind == PMON_MOD_CTL) {
		if (v > pmon_bits(md->width))
			return pmon_why(st->err, st->errlen, PMON_ERANGE,
					"%s=%s does not fit %u bits",
					md->name, val, md->width);
		if (st->ctl_um & (pmon_bits(md->width) << md->shift))
			return pmon_why(st->err, st->errlen, PMON_EQUAL,
					"modifier '%s' would change control bits the umask given "
					"already sets for %s", md->name, ev->name);
		st->ctl |= v << md->shift;
		return PMON_OK;
	}
	int f = pmon_enc_mod_field(t, ev, md);
	const struct pmon_filter_field *fd = &t->fields[f];
	if (md->kind == PMON_MOD_ADDR) {
		/* the hardware compares address bits md->shift..top: any other
		 * bit set would be dropped or ignored, so the match would not be
		 * what was asked for */
		unsigned top = fd->shift + fd->width - 1;
		if ((v >> top) > 1)
			return pmon_why(st->err, st->errlen, PMON_ERANGE,
					"%s=%s is above physical address bit %u, the highest %s compares "
					"(largest %s=0x%llx)", md->name, val, top, st->pmu_name,
					md->name, (unsigned long long)md->max);
		if (v & pmon_bits(md->shift))
			return pmon_why(st->err, st->errlen, PMON_ERANGE,
					"%s=%s sets address bits below bit %u, which %s does not compare: "
					"it matches %llu KiB pages (physical address bits %u:%u); the page "
					"holding this address is %s=0x%llx", md->name, val, md->shift,
					st->pmu_name, (unsigned long long)(1ull << md->shift) / 1024,
					top, md->shift, md->name,
					(unsigned long long)(v & ~pmon_bits(md->shift)));
		st->filt[fd->word] |= v;
	} else {
		unsigned w = md->width ? md->width : fd->width;
		if (v > pmon_bits(w))
			return pmon_why(st->err, st->errlen, PMON_ERANGE,
					"%s=%s does not fit its %u-bit field %s", md->name, val, w, fd->name);
		st->filt[fd->word] |= v << (fd->shift + md->shift);
	}
	st->ctl |= md->ctl_also;
	st->filled |= 1u << f;
	st->need |= 1u << f;
	return PMON_OK;
}

/* Phase 4: the modifiers, in the order named. */
int pmon_enc_apply_modifiers(struct encode_state *st)
{
	st->need = chosen_fields(st);
	for (int i = 0; i < st->nmods; i++) {
		int rc = apply_modifier(st, st->modname[i], st->modval[i]);
		if (rc)
			return rc;
	}
	return PMON_OK;
}

/* Phase 5: every needed filter field has a value, and no reserved bit is set. */
int pmon_enc_check_words(const struct encode_state *st)
{
	const struct pmon_event *ev = st->ev;
	const struct pmon_box_type *t = st->t;
	uint32_t missing = st->need & ~st->filled;
	for (int f = 0; f < t->nfields; f++) {
		if (!(missing & (1u << f)))
			continue;
		const char *hint = NULL;
		for (int m = 0; m < t->nmods; m++) {
			const struct pmon_modifier *md = &t->mods[m];
			if (md->kind != PMON_MOD_CTL && pmon_enc_mod_field(t, ev, md) == f) {
				hint = md->name;
				break;
			}
		}
		if (hint)
			return pmon_why(st->err, st->errlen, PMON_EQUAL,
					"%s needs a value for filter field %s: add :%s=N",
					ev->name, t->fields[f].name, hint);
		return pmon_why(st->err, st->errlen, PMON_EQUAL,
				"%s needs a value for filter field %s",
				ev->name, t->fields[f].name);
	}
	if (st->ctl & ~(uint64_t)t->ctl_valid && !(ev->flags & PMON_EV_OFFCORE))
		return pmon_why(st->err, st->errlen, PMON_EINVAL,
				"internal table error: %s encodes reserved control bits 0x%llx",
				ev->name, (unsigned long long)(st->ctl & ~(uint64_t)t->ctl_valid));
	for (int r = 0; r < t->nfregs; r++) {
		const struct pmon_filter_reg *fr = &t->fregs[r];
		if (fr->word < PMON_FILTER_WORDS && (st->filt[fr->word] & ~fr->valid))
			return pmon_why(st->err, st->errlen, PMON_ERANGE,
					"%s: value 0x%llx sets reserved bits of %s",
					ev->name, (unsigned long long)st->filt[fr->word], fr->name);
	}
	return PMON_OK;
}

/* Phase 7: an event that may program a whole-register matcher owns all of
 * it: it writes every bit (unset fields as 0) and shares it only with events
 * that want the identical setting. */
void pmon_enc_own_whole_registers(struct encode_state *st)
{
	const struct pmon_box_type *t = st->t;
	for (int r = 0; r < t->nfregs; r++) {
		if (!t->fregs[r].whole)
			continue;
		uint32_t word_fields = 0;
		int reachable = 0;
		for (int f = 0; f < t->nfields; f++)
			if (t->fields[f].word == t->fregs[r].word)
				word_fields |= 1u << f;
		for (int md = 0; md < t->nmods; md++) {
			int f = t->mods[md].kind != PMON_MOD_CTL ? pmon_enc_mod_field(t, st->ev, &t->mods[md]) : -1;
			if ((st->ev->mods & (1u << md)) && f >= 0 && (word_fields & (1u << f)))
				reachable = 1;
		}
		if (reachable || (st->need & word_fields))
			st->need |= word_fields;
	}
}
