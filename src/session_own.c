/*
 * session_own.c - ownership: box locks between processes, the journal,
 * and the checks that the registers still hold what pmon wrote.
 *
 * Between processes (and machine handles): before its read-only pre-pass a
 * start takes the kernel-held lock of every box it uses (boxlock.h) and
 * refuses, writing nothing, when another owner holds one, naming the box,
 * a register it needs and the holder's pid (PMON_FORCE=1 takes the box over,
 * loudly).  On the hardware it then journals the registers it will change
 * (journal.h) so that `pmon reset` can undo a crash.  Every read, fold and
 * stop checks that the controls and filters still hold what the session
 * wrote; a changed one fails the read with PMON_EBUSY naming the register.
 * A register found so changed (by a read, a fold, or the stop, which reads
 * every register it wrote before writing any, and marks every changed one
 * when its final check finds one) is another agent's from then on: the stop
 * leaves it as found, names it with the value found (PMON_EBUSY) and marks
 * it in the journal as not pmon's, so that `pmon reset` leaves it too; it
 * does not freeze the boxes then (no count is returned).  Unless the stop
 * finds it holding all of what pmon wrote again (given back): then it is
 * put back like the others, and pmon's event does not stay counting.  "Holding what
 * pmon wrote" is what the checks compare: a control whole, a filter in the
 * fields of the session's events, a box control in its freeze bits where
 * they read back at start (else it cannot be told and is put back as
 * before), IA32_PERF_GLOBAL_CTRL in the session's enable bits.
 * What the stop puts back, and what it leaves, is session_restore.c's.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "session_internal.h"
#include "journal.h"

int sess_forced(void)
{
	const char *f = getenv("PMON_FORCE");
	return f && !strcmp(f, "1");
}

/* A register the session needs in box b, for messages: a filter it uses,
 * else the control of its first event there. */
static void needed_reg(const pmon_session_t *s, int b, char *buf, size_t len)
{
	const struct sess_box *bx = &s->boxes[b];
	for (int r = 0; r < bx->regs.t->nfregs; r++)
		if (sess_uses_filter(s, b, r)) {
			pmon_reg_name(&bx->regs, REG_FILTER, r, buf, len);
			return;
		}
	for (int i = 0; i < s->n; i++)
		if (s->ev[i].box == b) {
			if (s->ev[i].counter < 0)
				pmon_reg_name(&bx->regs, REG_FIXED_CTL, 0, buf, len);
			else
				pmon_reg_name(&bx->regs, REG_CTL, s->ev[i].counter, buf, len);
			return;
		}
	snprintf(buf, len, "%s", bx->name);
}

void sess_release_locks(pmon_session_t *s)
{
	for (int b = 0; b < s->nboxes; b++)
		if (s->boxes[b].locked) {
			pmon_boxlock_drop(&s->m->locks, s->boxes[b].lock);
			s->boxes[b].locked = 0;
		}
}

/* Own every box of the session against other processes and machine
 * handles; refuse, with nothing written, when another owner holds one. */
int sess_take_locks(pmon_session_t *s)
{
	for (int b = 0; b < s->nboxes; b++) {
		struct sess_box *bx = &s->boxes[b];
		char why[512], reg[160];
		long holder;
		pmon_boxlock_name(bx->lock, sizeof(bx->lock), bx->name,
				  bx->regs.socket, is_core(bx) ? bx->regs.cpu : -1);
		int rc = pmon_boxlock_take(&s->m->locks, bx->lock, &holder, why, sizeof(why));
		bx->forced = NULL;
		if (rc == PMON_OK) {
			bx->locked = 1;
			bx->forced = pmon_boxlock_mark(&s->m->locks, bx->lock);
			continue;
		}
		needed_reg(s, b, reg, sizeof(reg));
		if (rc == PMON_EBUSY && sess_forced()) {
			/* the owner is told at its next read (forced_by) */
			char w[512];
			int mr = pmon_boxlock_force(&s->m->locks, bx->lock, w, sizeof(w));
			fprintf(stderr, "pmon: PMON_FORCE=1: TAKING OVER %s (needed: %s) although %s; "
				"the other owner's counts and ours will both be wrong%s%s\n", bx->lock, reg,
				why, mr ? "; and the owner cannot be told: " : "", mr ? w : "");
			continue;
		}
		sess_release_locks(s);
		if (rc == PMON_EBUSY)
			return pmon_why(s->err, sizeof(s->err), PMON_EBUSY, "%s is busy: %s; this session needs %s. Nothing "
				       "was written (%s; PMON_FORCE=1 takes the box over)",
				       bx->lock, why, reg, holder == (long)getpid()
				       ? "stop the other handle's sessions on it first, or count through one handle"
				       : "wait for it to stop");
		return pmon_why(s->err, sizeof(s->err), rc, "cannot own %s: %s", bx->lock, why);
	}
	return PMON_OK;
}

/* The journal lines of socket sock's boxes (room for nboxes * LINES_PER_BOX
 * in e): what they held before (wrote 0: every register saved, the
 * session's bits of a global control and of its overflow status), or what
 * the start wrote (wrote 1: the registers it wrote; the overflow bits its
 * counting may set).  Their count. */
#define LINES_PER_BOX 18
static int socket_lines(const pmon_session_t *s, int sock, int wrote, struct pmon_journal_entry *e)
{
	int n = 0;
	for (int b = 0; b < s->nboxes; b++) {
		const struct sess_box *bx = &s->boxes[b];
		if (bx->regs.socket != sock)
			continue;
		for (int i = 0; i <= bx->nsaved + 1 && i < LINES_PER_BOX; i++) {
			int global = i == bx->nsaved, ovf = i == bx->nsaved + 1;
			if (global ? !(gated(bx) && bx->global_bits) : ovf ? !ovf_kept(bx)
			    : wrote && !bx->saved[i].written)
				continue;
			snprintf(e[n].box, sizeof(e[n].box), "%s", bx->name);
			e[n].cpu = is_core(bx) ? bx->regs.cpu : -1;
			e[n].kind = global ? REG_GLOBAL_CTL : ovf ? REG_GLOBAL_OVF : bx->saved[i].kind;
			e[n].idx = global || ovf ? 0 : bx->saved[i].idx;
			if (wrote) {
				e[n].wrote = global || ovf ? bx->global_bits : bx->saved[i].wrote;
			} else {
				e[n].value = global ? bx->global_saved : ovf ? bx->ovf_saved : bx->saved[i].value;
				e[n].mask = global || ovf ? bx->global_bits : ~0ull;
			}
			n++;
		}
	}
	return n;
}

/* On the hardware, one rewrite of each socket's journal for all the
 * session's boxes there (journal.h): before the first write, the original
 * values of everything the session will change (wrote 0); after the start
 * has written everything, what it wrote beside them (wrote 1), so that
 * `pmon reset` never puts an original back over a register that no longer
 * holds what pmon wrote. */
static int journal_sockets(pmon_session_t *s, int wrote)
{
	if (s->m->emulated)
		return PMON_OK;
	for (int b0 = 0; b0 < s->nboxes; b0++) {
		int sock = s->boxes[b0].regs.socket, dup = 0;
		for (int b = 0; b < b0 && !dup; b++)
			dup = s->boxes[b].regs.socket == sock;
		if (dup)
			continue;
		struct pmon_journal_entry *e = calloc((size_t)s->nboxes * LINES_PER_BOX, sizeof(*e));
		if (!e)
			return pmon_why(s->err, sizeof(s->err), PMON_ENOMEM, "out of memory");
		int n = socket_lines(s, sock, wrote, e);
		char why[1024];
		int rc = wrote ? pmon_journal_wrote(s->m->run_dir, sock, e, n, why, sizeof(why))
			       : pmon_journal_add(s->m->run_dir, sock, e, n, why, sizeof(why));
		free(e);
		if (rc && wrote)
			return pmon_why(s->err, sizeof(s->err), rc, "cannot record in the journal what pmon "
					"wrote: %s", why);
		if (rc)
			return pmon_why(s->err, sizeof(s->err), rc, "cannot journal the registers of socket "
					"%d's boxes before changing them: %s. Nothing was written", sock, why);
	}
	return PMON_OK;
}

int sess_journal_boxes(pmon_session_t *s) { return journal_sockets(s, 0); }
int sess_journal_wrote(pmon_session_t *s) { return journal_sockets(s, 1); }

/* Register i of bx as sess_verify() checks it (fresh: read now, even when
 * who's last read of the counters' block brought it). */
static int check_saved(pmon_session_t *s, struct sess_box *bx, int i, enum reader who, int full,
		       int fresh, char *err, size_t errlen)
{
	struct saved_reg *r = &bx->saved[i];
	if (!r->written)
		return PMON_OK;
	int in_block = !fresh && bx->also[who][i].got;
	if (!in_block && !full)
		return PMON_OK;
	uint64_t v = bx->also[who][i].val, mask = r->vmask;
	char why[PMON_WHY_LEN], name[160];
	int rc = in_block ? PMON_OK : pmon_reg_read(s->m, &bx->regs, r->kind, r->idx, &v, why, sizeof why);
	if (rc || ((v ^ r->wrote) & mask))   /* named only when it is reported */
		pmon_reg_name(&bx->regs, r->kind, r->idx, name, sizeof(name));
	if (rc)
		return pmon_why(err, errlen, rc, "checking %s failed: %s", name, why);
	if (!((v ^ r->wrote) & mask)) {
		/* the stop's check (fresh): a register found taken holds all
		 * of what pmon wrote again (every bit: a shared filter's other
		 * fields may be what changed), its enable bit too: not left
		 * counting */
		if (fresh && r->taken)
			r->back = v == r->wrote;
		return PMON_OK;
	}
	r->back = 0;
	sess_mark_taken(s, bx, r, v);
	return pmon_why(err, errlen, PMON_EBUSY, "%s no longer holds what pmon wrote: another "
		       "agent (perf, the NMI watchdog, another tool) changed it "
		       "while pmon was counting, so the counts are not "
		       "trustworthy and none is returned", name);
}

/* Does the global control of gated box bx still enable the session's
 * counters (once start set them)?  Else it is another agent's
 * (global_taken). */
static int check_global(pmon_session_t *s, struct sess_box *bx, char *err, size_t errlen)
{
	if (!gated(bx) || !bx->global_bits || !bx->global_on)
		return PMON_OK;
	uint64_t g;
	char why[PMON_WHY_LEN], name[160];
	int rc = pmon_reg_read(s->m, &bx->regs, REG_GLOBAL_CTL, 0, &g, why, sizeof why);
	if (rc || (g & bx->global_bits) != bx->global_bits)
		pmon_reg_name(&bx->regs, REG_GLOBAL_CTL, 0, name, sizeof(name));
	if (rc)
		return pmon_why(err, errlen, rc, "checking %s failed: %s", name, why);
	if ((g & bx->global_bits) == bx->global_bits)
		return PMON_OK;
	bx->global_taken = 1;
	bx->global_found = g;
	return pmon_why(err, errlen, PMON_EBUSY, "%s no longer enables pmon's counters: another "
		       "agent changed it while pmon was counting, so the counts "
		       "are not trustworthy and none is returned", name);
}

/* Do the controls and filters still hold what the session wrote?  Those a
 * PCI box's counter block brought along at who's read (read_counters has
 * just run) are checked from it; the others (MSR boxes, a PCI box's
 * match/mask function, the global control) only when full (doc/internals.md, "How
 * counters are read": every fold, stop and reset, and a read at least
 * PMON_VERIFY_NS after the last full check).  The reason goes to err
 * (errlen bytes). */

int sess_verify(pmon_session_t *s, enum reader who, int full, char *err, size_t errlen)
{
	for (int b = 0; b < s->nboxes; b++) {
		struct sess_box *bx = &s->boxes[b];
		for (int i = 0; i < bx->nsaved; i++) {
			int rc = check_saved(s, bx, i, who, full, 0, err, errlen);
			if (rc)
				return rc;
		}
		int rc = full ? check_global(s, bx, err, errlen) : PMON_OK;
		if (rc)
			return rc;
	}
	return PMON_OK;
}

/* Before stop writes anything (its freeze rewrites the box controls):
 * every register the session wrote, read now, and each one changed marked
 * another agent's (check_saved, check_global), not only the first.  The
 * first failure or change goes to err; PMON_EBUSY too when none is found
 * now but one was before. */
int sess_find_taken(pmon_session_t *s, char *err, size_t errlen)
{
	int first = 0, taken = 0;
	char why[sizeof(s->err)];
	for (int b = 0; b < s->nboxes; b++) {
		struct sess_box *bx = &s->boxes[b];
		for (int i = 0; i <= bx->nsaved; i++) {
			/* (a register of no checked bit is not read) */
			int rc = i == bx->nsaved ? check_global(s, bx, why, sizeof why)
				 : bx->saved[i].vmask ? check_saved(s, bx, i, BY_OWNER, 1, 1, why, sizeof why)
				 : PMON_OK;
			if (rc && !first)
				first = pmon_why(err, errlen, rc, "%s", why);
			taken |= i < bx->nsaved ? bx->saved[i].taken : bx->global_taken;
		}
	}
	if (!first && taken)
		first = pmon_why(err, errlen, PMON_EBUSY, "another agent changed registers pmon wrote while "
				 "pmon was counting, so the counts are not trustworthy and none is returned");
	return first;
}

/* sess_verify(s, who, 0): quick when they do; sess_verify() names a mismatch. */
int sess_verify_read(pmon_session_t *s, enum reader who, char *err, size_t errlen)
{
	return blocks_intact(s, who) ? PMON_OK : sess_verify(s, who, 0, err, errlen);
}
