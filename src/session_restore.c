/*
 * session_restore.c - putting back what a session changed.
 *
 * The stop (and a start that fails half-way) restores every register the
 * session changed that is still pmon's, hands shared ones over to the
 * sessions still running (session_share.c), retries the ones that fail, and
 * returns an error naming each register left changed (its journal entries
 * then stay for `pmon reset`); a register another agent took over is left
 * as found and marked in the journal as not pmon's.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "session_internal.h"
#include "journal.h"

/* Write a saved value back, trying up to three times.  A register that
 * stays changed is named in left[] and its error kept in *first. */
static int put_back(pmon_session_t *s, struct sess_box *bx, enum pmon_reg_kind k, int idx,
		    uint64_t v, char *left, size_t len, int *first)
{
	int rc = 0;
	char why[PMON_WHY_LEN] = "";
	for (int t = 0; t < 3; t++) {
		if (k == REG_GLOBAL_CTL) {
			rc = sess_global_update(s, bx, 0);
			snprintf(why, sizeof why, "%.200s", s->err);
		} else {
			rc = pmon_reg_write(s->m, &bx->regs, k, idx, v, why, sizeof why);
		}
		if (!rc)
			return PMON_OK;
	}
	size_t n = strlen(left);
	char name[160];
	pmon_reg_name(&bx->regs, k, idx, name, sizeof(name));
	if (n < len)
		snprintf(left + n, len - n, "%s%s (%s)", n ? "; " : "", name, why);
	if (!*first)
		*first = rc;
	return rc;
}

/* The overflow bits the session's counting set in bx's global status (not
 * those set before it started): cleared through the overflow control.
 * A failure is named in left[] like put_back's. */
static int clear_overflows(pmon_session_t *s, struct sess_box *bx, char *left, size_t len, int *first)
{
	uint64_t st = 0;
	char why[PMON_WHY_LEN] = "";
	int rc = PMON_OK;
	for (int t = 0; t < 3; t++)
		if (!(rc = pmon_reg_read(s->m, &bx->regs, REG_GLOBAL_OVF, 0, &st, why, sizeof why)))
			break;
	uint64_t clear = st & bx->global_bits & ~bx->ovf_saved;
	if (!rc)
		return clear ? put_back(s, bx, REG_GLOBAL_OVF, 0, clear, left, len, first) : PMON_OK;
	size_t n = strlen(left);
	char name[160];
	pmon_reg_name(&bx->regs, REG_GLOBAL_OVF, 0, name, sizeof(name));
	if (n < len)
		snprintf(left + n, len - n, "%s%s (%s)", n ? "; " : "", name, why);
	if (!*first)
		*first = rc;
	return rc;
}

/* A register of bx another agent took over: named in kept[] with what was
 * found in it, and journaled as not pmon's (e[*n], journal.h). */
static void keep_theirs(struct sess_box *bx, enum pmon_reg_kind k, int idx, uint64_t found,
			char *kept, size_t klen, struct pmon_journal_entry *e, int *n)
{
	char name[160];
	pmon_reg_name(&bx->regs, k, idx, name, sizeof(name));
	pmon_why_add(kept, klen, "; ", "%s = 0x%llx", name, (unsigned long long)found);
	memset(&e[*n], 0, sizeof(e[*n]));
	snprintf(e[*n].box, sizeof(e[*n].box), "%s", bx->name);
	e[*n].cpu = is_core(bx) ? bx->regs.cpu : -1;
	e[*n].kind = k;
	e[*n].idx = idx;
	e[*n].value = found;
	/* a global control: the session's bits, those the agent took (journal.h) */
	if (k == REG_GLOBAL_CTL)
		e[*n].mask = bx->global_bits;
	(*n)++;
}

/* The references this session holds on bx's box lock (its boxes of that
 * lock name). */
static int own_refs(const pmon_session_t *s, const struct sess_box *bx)
{
	int n = 0;
	for (int b = 0; b < s->nboxes; b++)
		n += s->boxes[b].locked && !strcmp(s->boxes[b].lock, bx->lock);
	return n;
}

/* Drop the journal lines of the boxes marked drop_lines, one rewrite of a
 * socket's journal for all its boxes; a failure is a warning (s->warn). */
static void drop_lines(pmon_session_t *s)
{
	for (int b0 = 0; b0 < s->nboxes; b0++) {
		int sock = s->boxes[b0].regs.socket, dup = 0, n = 0;
		if (!s->boxes[b0].drop_lines)
			continue;
		for (int b = 0; b < b0 && !dup; b++)
			dup = s->boxes[b].drop_lines && s->boxes[b].regs.socket == sock;
		if (dup)
			continue;
		struct pmon_journal_entry *e = calloc((size_t)s->nboxes, sizeof(*e));
		char why[1024];
		int rc;
		if (e) {
			for (int b = b0; b < s->nboxes; b++) {
				struct sess_box *bx = &s->boxes[b];
				if (!bx->drop_lines || bx->regs.socket != sock)
					continue;
				snprintf(e[n].box, sizeof(e[n].box), "%s", bx->name);
				e[n].cpu = is_core(bx) ? bx->regs.cpu : -1;
				n++;
			}
			rc = pmon_journal_drop_boxes(s->m->run_dir, sock, e, n, why, sizeof(why));
			free(e);
		} else {
			rc = pmon_why(why, sizeof(why), PMON_ENOMEM, "out of memory");
		}
		/* every register is back: only the record of them stays */
		for (int b = b0; rc && b < s->nboxes; b++)
			if (s->boxes[b].drop_lines && s->boxes[b].regs.socket == sock)
				pmon_why_add(s->warn, sizeof(s->warn), "; ", "%s: every register was put back, "
					     "but its journal lines could not be removed (%s); they stay "
					     "harmless: `pmon reset` writes no register that no longer holds "
					     "what pmon wrote, and removes them", s->boxes[b].lock, why);
	}
	for (int b = 0; b < s->nboxes; b++)
		s->boxes[b].drop_lines = 0;
}

/* Put back every register the session changed but those another agent
 * took over (taken: named in kept[], and in the journal as not pmon's),
 * release its boxes.  Returns 0, or the first error with left[]
 * naming every register left changed. */
int sess_restore_all(pmon_session_t *s, char *left, size_t len, char *kept, size_t klen)
{
	int first = 0;
	left[0] = kept[0] = 0;
	for (int b = 0; b < s->nboxes; b++) {
		struct sess_box *bx = &s->boxes[b];
		struct pmon_journal_entry theirs[sizeof(bx->saved) / sizeof(bx->saved[0]) + 2];
		int bad = 0, ntheirs = 0;
		for (int i = 0; i < bx->nsaved; i++) {
			struct saved_reg *r = &bx->saved[i];
			r->written = 0;
			sess_expect_written(bx, i);
			if (r->taken && !r->back) {
				keep_theirs(bx, r->kind, r->idx, r->found, kept, klen, theirs, &ntheirs);
				continue;
			}
			if (r->kind == REG_FILTER && sess_hand_over(s, bx, r)) {
				/* the other users' fields alone stay */
				bad |= put_back(s, bx, REG_FILTER, r->idx, sess_others_filter(s, bx, r->idx),
						left, len, &first) != 0;
				continue;
			}
			if (r->kind == REG_BOX_CTL && sess_hand_over(s, bx, r)) {
				/* the box counts on for the others */
				bad |= put_back(s, bx, REG_BOX_CTL, 0, PMON_BOX_FRZ_EN, left, len, &first) != 0;
				continue;
			}
			bad |= put_back(s, bx, r->kind, r->idx, r->value, left, len, &first) != 0;
		}
		if (gated(bx) && bx->global_bits) {
			if (bx->global_taken) {
				keep_theirs(bx, REG_GLOBAL_CTL, 0, bx->global_found, kept, klen, theirs,
					    &ntheirs);
				/* the agent's counters' overflow bits are not pmon's to clear */
				if (ovf_kept(bx)) {
					memset(&theirs[ntheirs], 0, sizeof(theirs[ntheirs]));
					snprintf(theirs[ntheirs].box, sizeof(theirs[ntheirs].box), "%s", bx->name);
					theirs[ntheirs].cpu = is_core(bx) ? bx->regs.cpu : -1;
					theirs[ntheirs].kind = REG_GLOBAL_OVF;
					theirs[ntheirs++].mask = bx->global_bits;
				}
			} else
				bad |= put_back(s, bx, REG_GLOBAL_CTL, 0, 0, left, len, &first) != 0;
			bx->global_on = 0;
		}
		if (ovf_kept(bx) && !bx->global_taken)
			bad |= clear_overflows(s, bx, left, len, &first) != 0;
		/* `pmon reset` must not put the original back over the other
		 * agent's value either */
		if (ntheirs && !s->m->emulated) {
			char why[1024];
			int rc = pmon_journal_disown(s->m->run_dir, bx->regs.socket, theirs, ntheirs, why,
						     sizeof(why));
			if (rc) {
				/* the journal's lines stay: `pmon reset` finds those
				 * registers holding something else than what pmon
				 * wrote and leaves them */
				bad = 1;
				pmon_why_add(s->warn, sizeof(s->warn), "; ", "%s: cannot mark the registers "
					     "another agent took as its own in the journal (%s); `pmon reset` "
					     "leaves them all the same (they no longer hold what pmon wrote)",
					     bx->name, why);
			}
		}
		/* the last user of the box in this machine: its journal lines go,
		 * unless something stayed changed (`pmon reset` needs them then) */
		bx->drop_lines = bx->locked && !bad && !s->m->emulated &&
				 pmon_boxlock_refs(&s->m->locks, bx->lock) == own_refs(s, bx);
	}
	drop_lines(s);
	/* the box locks go last: another process taking a box journals its
	 * registers only once this process's lines of them are gone */
	for (int b = 0; b < s->nboxes; b++)
		if (s->boxes[b].locked) {
			pmon_boxlock_drop(&s->m->locks, s->boxes[b].lock);
			s->boxes[b].locked = 0;
		}
	return first;
}

/* The error of an operation that ended with sess_restore_all(): rc and s->err
 * describe what failed first, rr and left what stayed changed, kept what
 * was left to another agent (PMON_EBUSY when nothing failed before). */
int sess_restore_error(pmon_session_t *s, int rc, int rr, const char *left, const char *kept)
{
	if (!rr && !kept[0])
		return rc;
	char first[sizeof(s->err)];
	if (rc)
		snprintf(first, sizeof(first), "%s", s->err);
	else if (kept[0])
		snprintf(first, sizeof(first), "another agent changed registers pmon wrote");
	else
		first[0] = 0;
	int code = rc ? rc : kept[0] ? PMON_EBUSY : rr;
	s->err[0] = 0;
	pmon_why_add(s->err, sizeof(s->err), "", "%s", first);
	if (kept[0])
		pmon_why_add(s->err, sizeof(s->err), "; ", "left as another agent set them (neither this "
			     "stop nor `pmon reset` writes them): %s%s", kept,
			     rr ? "" : "; every other register pmon changed was put back");
	if (rr)
		pmon_why_add(s->err, sizeof(s->err), "; ", "registers left changed after retries: %s; "
			     "`pmon reset` puts them back once the device answers", left);
	return code;
}
