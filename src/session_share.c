/*
 * session_share.c - hand-over between running sessions of one machine.
 *
 * Registers shared with another running session of the same machine are
 * handed over rather than restored: a filter holds the fields of every
 * running session that uses it (a session starting after another saves the
 * other's original, not its value), one that stops takes only its own fields
 * away, and the original comes back when the last user stops;
 * IA32_PERF_GLOBAL_CTRL is changed only in the
 * session's own bits, and a box another session still uses is released
 * unfrozen.  Box controls are write-only in silicon, so their earlier value
 * cannot be saved; an unused box is left at 0, its power-on state.
 */
#include "session_internal.h"

/* Session i of the machine (caller holds the registry lock). */
static pmon_session_t *session_at(const pmon_session_t *s, int i)
{
	return pmon_registry_item(&s->m->sessions, i);
}

/* The next running session other than s after registry index *o (start
 * with *o = -1), NULL after the last.  Caller holds the registry lock. */
pmon_session_t *sess_next_other(const pmon_session_t *s, int *o)
{
	while (++*o < pmon_registry_count(&s->m->sessions)) {
		pmon_session_t *x = session_at(s, *o);
		if (x != s && x->running)
			return x;
	}
	return NULL;
}

/* Register k idx of bx's box as another running session saved it, when
 * that session found it taken over by another agent (mark_taken); else
 * NULL.  Caller holds the registry lock. */
const struct saved_reg *sess_taken_by_other(pmon_session_t *s, const struct sess_box *bx,
					    enum pmon_reg_kind k, int idx)
{
	pmon_session_t *x;
	for (int o = -1; (x = sess_next_other(s, &o));)
		for (int b = 0; b < x->nboxes; b++)
			for (int j = 0; same_box(&x->boxes[b].regs, &bx->regs) && j < x->boxes[b].nsaved; j++)
				if (x->boxes[b].saved[j].kind == k && x->boxes[b].saved[j].idx == idx &&
				    x->boxes[b].saved[j].taken)
					return &x->boxes[b].saved[j];
	return NULL;
}

/* The box of another running session that is bx's box and uses its filter
 * register r, or NULL.  Caller holds the registry lock. */
struct sess_box *sess_filter_user(pmon_session_t *s, const struct sess_box *bx, int r)
{
	pmon_session_t *x;
	for (int o = -1; (x = sess_next_other(s, &o));) {
		for (int b = 0; b < x->nboxes; b++)
			if (same_box(&x->boxes[b].regs, &bx->regs) && sess_uses_filter(x, b, r))
				return &x->boxes[b];
	}
	return NULL;
}

/* Does the filter register r of box bx carry a field some event of s uses? */
int sess_uses_filter(const pmon_session_t *s, int box, int r)
{
	const struct pmon_box_type *t = s->boxes[box].regs.t;
	for (int i = 0; i < s->n; i++) {
		if (s->ev[i].box != box)
			continue;
		for (int f = 0; f < t->nfields; f++)
			if ((s->ev[i].enc.fields_used & (1u << f)) && t->fields[f].word == t->fregs[r].word)
				return 1;
	}
	return 0;
}

/* The bits of filter register r of box b that the session's events set. */
uint64_t sess_filter_mask(const pmon_session_t *s, int b, int r)
{
	const struct pmon_box_type *t = s->boxes[b].regs.t;
	if (t->fregs[r].whole)
		return t->fregs[r].valid;
	uint64_t m = 0;
	for (int i = 0; i < s->n; i++) {
		if (s->ev[i].box != b)
			continue;
		for (int f = 0; f < t->nfields; f++)
			if ((s->ev[i].enc.fields_used & (1u << f)) && t->fields[f].word == t->fregs[r].word)
				m |= (t->fields[f].width >= 64 ? ~0ull
				      : ((1ull << t->fields[f].width) - 1)) << t->fields[f].shift;
	}
	return m & t->fregs[r].valid;
}

/* The fields of filter register r of bx's box that other running sessions
 * use, as they set them.  Caller holds the registry lock. */
uint64_t sess_others_filter(pmon_session_t *s, const struct sess_box *bx, int r)
{
	uint64_t v = 0;
	pmon_session_t *x;
	for (int o = -1; (x = sess_next_other(s, &o));) {
		for (int b = 0; b < x->nboxes; b++) {
			if (!same_box(&x->boxes[b].regs, &bx->regs) || !sess_uses_filter(x, b, r))
				continue;
			uint64_t mask = sess_filter_mask(x, b, r);
			for (int i = 0; i < x->n; i++)
				if (x->ev[i].box == b)
					v |= x->ev[i].enc.filt[bx->regs.t->fregs[r].word] & mask;
		}
	}
	return v;
}

/* Register r of bx holds v, not what the session wrote: another agent's
 * from now on (stop and `pmon reset` leave it as found), for every running
 * session of the machine that has it.  Caller holds the registry lock. */
void sess_mark_taken(pmon_session_t *s, struct sess_box *bx, struct saved_reg *r, uint64_t v)
{
	pmon_session_t *x;
	r->taken = 1;
	r->found = v;
	for (int o = -1; (x = sess_next_other(s, &o));)
		for (int b = 0; b < x->nboxes; b++)
			for (int j = 0; same_box(&x->boxes[b].regs, &bx->regs) && j < x->boxes[b].nsaved; j++)
				if (x->boxes[b].saved[j].kind == r->kind && x->boxes[b].saved[j].idx == r->idx) {
					x->boxes[b].saved[j].taken = 1;
					x->boxes[b].saved[j].found = v;
				}
}

/* Another running session using the same box: the registers it shares with
 * us are its to restore.  Caller holds the registry lock. */
struct sess_box *sess_successor(pmon_session_t *s, const struct sess_box *bx)
{
	pmon_session_t *x;
	for (int o = -1; (x = sess_next_other(s, &o));) {
		for (int b = 0; b < x->nboxes; b++)
			if (same_box(&x->boxes[b].regs, &bx->regs))
				return &x->boxes[b];
	}
	return NULL;
}

/* A filter of box bx that another running session uses too, or its box
 * control when another running session counts in the box, stays for it
 * (1): the sessions started after this one saved what this one wrote and
 * take over its saved value; one started before holds an older value
 * already.  The last user restores the original.  A filter no other session
 * uses (say the other RSP register of a CPU) is ours to restore (0).
 * Caller holds the registry lock. */
int sess_hand_over(pmon_session_t *s, const struct sess_box *bx, const struct saved_reg *r)
{
	int used = 0;
	pmon_session_t *x;
	for (int o = -1; (x = sess_next_other(s, &o));) {
		for (int b = 0; b < x->nboxes; b++) {
			struct sess_box *xb = &x->boxes[b];
			if (!same_box(&xb->regs, &bx->regs))
				continue;
			for (int j = 0; j < xb->nsaved; j++)
				if (xb->saved[j].kind == r->kind && xb->saved[j].idx == r->idx) {
					used = 1;
					if (x->seq > s->seq)
						xb->saved[j].value = r->value;
				}
		}
	}
	return used;
}
