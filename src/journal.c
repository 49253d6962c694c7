/* journal.c - per-socket journal of original register values (see
 * journal.h): its operations, each a change of the journal under its lock
 * (journal_file.c) merged from the entries (journal_line.c). */
#define _GNU_SOURCE
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pmon/pmon.h"
#include "journal.h"
#include "journal_internal.h"
#include "why.h"

static int same(const struct pmon_journal_entry *a, const struct pmon_journal_entry *b)
{
	return !strcmp(a->box, b->box) && a->cpu == b->cpu && a->kind == b->kind && a->idx == b->idx;
}

/* A line of an owner that died, on a box of e[0..n) (its index, or -1). */
static int dead_owner_line(const struct pmon_journal_entry *cur, int ncur,
			   const struct pmon_journal_entry *e, int n)
{
	const struct pmon_owner *self = pmon_owner_self();
	for (int j = 0; j < ncur; j++) {
		if (!cur[j].mask || pmon_owner_same(&cur[j].owner, self))
			continue;
		int mine = 0;
		for (int i = 0; i < n && !mine; i++)
			mine = !strcmp(cur[j].box, e[i].box) && cur[j].cpu == e[i].cpu;
		if (mine && !pmon_owner_alive(&cur[j].owner))
			return j;
	}
	return -1;
}

enum how { ADD, WROTE, DISOWN };

/* A register whose bits belong to sessions one by one (a global control,
 * its overflow status: mask the sessions' counters): the entries of one
 * process merge bit by bit, as several of its sessions share the register. */
static int bitwise(const struct pmon_journal_entry *e)
{
	return e->kind == REG_GLOBAL_CTL || e->kind == REG_GLOBAL_OVF;
}

/* Merge e[0..n) into a socket's journal under its lock; a register not
 * there yet is appended (but by WROTE).  One already there: ADD keeps its
 * entry (the oldest value) unless that is another agent's (mask 0), which
 * the new one replaces; DISOWN replaces it with the new one marked another
 * agent's; WROTE sets what was written in this process's entry. */
static int merge(const char *dir, int socket, const struct pmon_journal_entry *e, int n,
		 enum how how, char *why, size_t len)
{
	struct pmon_journal_entry *cur;
	const struct pmon_owner *self = pmon_owner_self();
	int fd, dfd, ncur, rc = pmon_jfile_open_locked(dir, socket, &fd, &dfd, &cur, &ncur, why, len), changed = 0;
	if (rc)
		return rc;
	if (how == ADD)
		pmon_jfile_clean(dfd, socket);
	int dead = how == ADD ? dead_owner_line(cur, ncur, e, n) : -1;
	struct pmon_journal_entry *all = NULL;
	if (dead < 0 && !(all = realloc(cur, sizeof(*all) * (size_t)(ncur + n + 1))))
		rc = pmon_why(why, len, PMON_ENOMEM, "out of memory");
	if (dead >= 0) {
		char path[PATH_MAX + 64];
		snprintf(path, sizeof(path), "%s/socket%d.journal", dir, socket);
		rc = pmon_why(why, len, PMON_EBUSY, "%s holds the original values of registers of %s%s "
			      "that process %ld changed and did not put back (it died); `pmon reset "
			      "--socket %d` puts them back, then %s can be used again", path,
			      cur[dead].box, cur[dead].cpu >= 0 ? " (a CPU's core PMU)" : "",
			      cur[dead].owner.pid, socket, cur[dead].box);
	} else if (all) {
		cur = all;
		for (int i = 0; i < n; i++) {
			int j = 0;
			while (j < ncur && !same(&cur[j], &e[i]))
				j++;
			if (how == WROTE) {
				if (j < ncur && cur[j].mask && pmon_owner_same(&cur[j].owner, self)) {
					uint64_t w = e[i].wrote;
					if (bitwise(&cur[j]) && cur[j].has_wrote)
						w |= cur[j].wrote & ~e[i].wrote;   /* the others' bits */
					changed |= !cur[j].has_wrote || cur[j].wrote != w;
					cur[j].wrote = w;
					cur[j].has_wrote = 1;
				}
				continue;
			}
			/* another session of this process adds its bits */
			if (how == ADD && j < ncur && cur[j].mask && bitwise(&cur[j]) &&
			    pmon_owner_same(&cur[j].owner, self)) {
				uint64_t nb = e[i].mask & ~cur[j].mask;
				cur[j].value |= e[i].value & nb;
				cur[j].mask |= nb;
				/* the line already says what the first session wrote;
				 * what this one's start writes there are its enable
				 * bits, before its own WROTE: recorded now, or a kill
				 * in between leaves them to reset as another agent's */
				if (cur[j].has_wrote && cur[j].kind == REG_GLOBAL_CTL)
					cur[j].wrote |= nb;
				changed |= nb != 0;
				continue;
			}
			/* disown: another agent took these sessions' bits alone;
			 * the bits of the process's other sessions stay its own */
			if (how == DISOWN && j < ncur && cur[j].mask && bitwise(&cur[j]) &&
			    pmon_owner_same(&cur[j].owner, self) && (cur[j].mask & ~e[i].mask)) {
				uint64_t keep = cur[j].mask & ~e[i].mask;
				changed |= keep != cur[j].mask;
				cur[j].mask = keep;
				cur[j].value &= keep;
				cur[j].wrote &= keep;
				continue;
			}
			/* an overflow line has no value to keep for the agent:
			 * none of its bits left pmon's, it goes */
			if (how == DISOWN && e[i].kind == REG_GLOBAL_OVF) {
				if (j < ncur && pmon_owner_same(&cur[j].owner, self)) {
					memmove(&cur[j], &cur[j + 1], sizeof(*cur) * (size_t)(ncur - j - 1));
					ncur--;
					changed = 1;
				}
				continue;
			}
			/* add: a register another agent had is pmon's again */
			if (how == ADD && j < ncur && cur[j].mask)
				continue;
			cur[j] = e[i];
			cur[j].owner = *self;
			if (how == DISOWN)
				cur[j].mask = 0;
			if (how == ADD)
				cur[j].has_wrote = 0;
			ncur += j == ncur;
			changed = 1;
		}
		if (changed)
			rc = pmon_jfile_store(dfd, dir, socket, cur, ncur, why, len);
	}
	free(cur);
	pmon_jfile_unlock(dfd, socket);
	return rc;
}

int pmon_journal_add(const char *dir, int socket, const struct pmon_journal_entry *e, int n,
		     char *why, size_t len)
{
	return merge(dir, socket, e, n, ADD, why, len);
}

int pmon_journal_wrote(const char *dir, int socket, const struct pmon_journal_entry *e, int n,
		       char *why, size_t len)
{
	return merge(dir, socket, e, n, WROTE, why, len);
}

int pmon_journal_disown(const char *dir, int socket, const struct pmon_journal_entry *e, int n,
			char *why, size_t len)
{
	return merge(dir, socket, e, n, DISOWN, why, len);
}

int pmon_journal_intent(const char *dir, int socket, const struct pmon_journal_entry *e,
			uint64_t *orig, char *why, size_t len)
{
	struct pmon_journal_entry *cur;
	const struct pmon_owner *self = pmon_owner_self();
	int fd, dfd, ncur, rc = pmon_jfile_open_locked(dir, socket, &fd, &dfd, &cur, &ncur, why, len);
	if (rc)
		return rc;
	struct pmon_journal_entry *all = realloc(cur, sizeof(*all) * (size_t)(ncur + 1));
	if (!all) {
		free(cur);
		pmon_jfile_unlock(dfd, socket);
		return pmon_why(why, len, PMON_ENOMEM, "out of memory");
	}
	cur = all;
	int j = 0;
	while (j < ncur && !(same(&cur[j], e) && cur[j].mask))
		j++;
	if (j == ncur) {
		cur[j] = *e;
		ncur++;
	}
	/* the oldest original stays; the last writer owns the line */
	cur[j].owner = *self;
	cur[j].wrote = e->wrote;
	cur[j].has_wrote = 1;
	*orig = cur[j].value;
	rc = pmon_jfile_store(dfd, dir, socket, cur, ncur, why, len);
	free(cur);
	pmon_jfile_unlock(dfd, socket);
	return rc;
}

int pmon_journal_drop(const char *dir, int socket, const char *box, int cpu, char *why, size_t len)
{
	struct pmon_journal_entry b;
	memset(&b, 0, sizeof(b));
	snprintf(b.box, sizeof(b.box), "%s", box);
	b.cpu = cpu;
	return pmon_journal_drop_boxes(dir, socket, &b, 1, why, len);
}

int pmon_journal_drop_boxes(const char *dir, int socket, const struct pmon_journal_entry *b, int nb,
			    char *why, size_t len)
{
	struct pmon_journal_entry *cur;
	const struct pmon_owner *self = pmon_owner_self();
	int fd, dfd, ncur, rc = pmon_jfile_open_locked(dir, socket, &fd, &dfd, &cur, &ncur, why, len), k = 0;
	if (rc)
		return rc;
	for (int i = 0; i < ncur; i++) {
		int drop = 0;
		for (int j = 0; j < nb && !drop; j++)
			drop = !strcmp(cur[i].box, b[j].box) && cur[i].cpu == b[j].cpu;
		if (!drop || !cur[i].mask || !pmon_owner_same(&cur[i].owner, self))
			cur[k++] = cur[i];
	}
	if (k != ncur)
		rc = pmon_jfile_store(dfd, dir, socket, cur, k, why, len);
	free(cur);
	pmon_jfile_unlock(dfd, socket);
	return rc;
}

int pmon_journal_load(const char *dir, int socket, struct pmon_journal_entry **e, int *n,
		      char *bad, size_t badlen, char *why, size_t len)
{
	int nbad, dfd, fd = pmon_jfile_lock(dir, socket, &dfd, why, len);
	if (fd < 0)
		return fd;
	int rc = pmon_jfile_load(dfd, dir, socket, e, n, bad, badlen, &nbad, why, len);
	pmon_jfile_unlock(dfd, socket);
	return rc;
}

int pmon_journal_replace(const char *dir, int socket, const struct pmon_journal_entry *e, int n,
			 char *why, size_t len)
{
	int dfd, fd = pmon_jfile_lock(dir, socket, &dfd, why, len);
	if (fd < 0)
		return fd;
	pmon_jfile_clean(dfd, socket);
	int rc = pmon_jfile_store(dfd, dir, socket, e, n, why, len);
	pmon_jfile_unlock(dfd, socket);
	return rc;
}
