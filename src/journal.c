/* journal.c - per-socket journal of original register values (see journal.h). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "pmon/pmon.h"
#include "boxlock.h"
#include "journal.h"
#include "safefile.h"
#include "why.h"

static const char *const kind_names[] = {
	[REG_BOX_CTL] = "box_ctl", [REG_CTL] = "ctl", [REG_CTR] = "ctr",
	[REG_FIXED_CTL] = "fixed_ctl", [REG_FIXED_CTR] = "fixed_ctr",
	[REG_FILTER] = "filter", [REG_GLOBAL_CTL] = "global_ctrl",
};
#define NKINDS ((int)(sizeof(kind_names) / sizeof(kind_names[0])))

const char *pmon_reg_kind_name(enum pmon_reg_kind k)
{
	return (int)k >= 0 && (int)k < NKINDS && kind_names[k] ? kind_names[k] : "?";
}

static int kind_of(const char *name)
{
	for (int k = 0; k < NKINDS; k++)
		if (kind_names[k] && !strcmp(kind_names[k], name))
			return k;
	return -1;
}

static void jpath(char *buf, size_t len, const char *dir, int socket, const char *suffix)
{
	snprintf(buf, len, "%s/socket%d.journal%s", dir, socket, suffix);
}

/* The lock that serializes changes to the socket's journal: an fd to close. */
static int jlock(const char *dir, int socket, char *why, size_t len)
{
	char path[PATH_MAX + 64];
	jpath(path, sizeof(path), dir, socket, ".lock");
	int fd = pmon_run_open(dir, path, "open the journal lock", why, len);
	if (fd < 0)
		return fd;
	int rc = pmon_safe_lock(fd, F_WRLCK, 0, 0, PMON_LOCK_WAIT_MS, path, why, len);
	if (rc) {
		close(fd);
		return rc;
	}
	return fd;
}

static int load(const char *dir, int socket, struct pmon_journal_entry **out, int *n, char *why,
		size_t len)
{
	char path[PATH_MAX + 64], line[256];
	jpath(path, sizeof(path), dir, socket, "");
	*out = NULL;
	*n = 0;
	FILE *f = fopen(path, "re");
	if (!f) {
		if (errno == ENOENT)
			return PMON_OK;
		return pmon_why(why, len, PMON_EIO, "cannot read the journal %s: %s", path,
				strerror(errno));
	}
	int cap = 0, rc = PMON_OK, lineno = 0;
	while (fgets(line, sizeof(line), f)) {
		lineno++;
		if (line[0] == '#' || line[0] == '\n')
			continue;
		struct pmon_journal_entry e;
		char kind[24];
		memset(&e, 0, sizeof(e));
		if (sscanf(line, "box=%47s cpu=%d reg=%23s idx=%d value=%" SCNx64 " mask=%" SCNx64,
			   e.box, &e.cpu, kind, &e.idx, &e.value, &e.mask) != 6 || kind_of(kind) < 0) {
			rc = pmon_why(why, len, PMON_EIO, "%s line %d is not a journal entry: %s",
				      path, lineno, line);
			break;
		}
		e.kind = (enum pmon_reg_kind)kind_of(kind);
		if (*n == cap) {
			cap = cap ? 2 * cap : 32;
			struct pmon_journal_entry *x = realloc(*out, sizeof(*x) * (size_t)cap);
			if (!x) {
				rc = pmon_why(why, len, PMON_ENOMEM, "out of memory");
				break;
			}
			*out = x;
		}
		(*out)[(*n)++] = e;
	}
	fclose(f);
	if (rc) {
		free(*out);
		*out = NULL;
		*n = 0;
	}
	return rc;
}

/* Replace the journal with these entries (none: remove it), atomically. */
static int store(const char *dir, int socket, const struct pmon_journal_entry *e, int n,
		 char *why, size_t len)
{
	char path[PATH_MAX + 64], tmp[PATH_MAX + 96];
	jpath(path, sizeof(path), dir, socket, "");
	if (n == 0) {
		if (unlink(path) && errno != ENOENT)
			return pmon_why(why, len, PMON_EIO, "cannot remove %s: %s", path, strerror(errno));
		return PMON_OK;
	}
	snprintf(tmp, sizeof(tmp), "%s.tmp%ld", path, (long)getpid());
	FILE *f = fopen(tmp, "we");
	if (!f)
		return pmon_why(why, len, PMON_EIO, "cannot write %s: %s", tmp, strerror(errno));
	fprintf(f, "# pmon: original values of registers pmon changed on socket %d; "
		   "`pmon reset` puts them back (mask=0x0: another agent's, left alone)\n", socket);
	for (int i = 0; i < n; i++)
		fprintf(f, "box=%s cpu=%d reg=%s idx=%d value=0x%" PRIx64 " mask=0x%" PRIx64 "\n",
			e[i].box, e[i].cpu, pmon_reg_kind_name(e[i].kind), e[i].idx, e[i].value,
			e[i].mask);
	int bad = fflush(f) != 0 || fsync(fileno(f)) != 0;
	bad |= fclose(f) != 0;
	if (bad || rename(tmp, path)) {
		int err = errno;
		unlink(tmp);
		return pmon_why(why, len, PMON_EIO, "cannot write the journal %s: %s", path,
				strerror(err));
	}
	return PMON_OK;
}

/* The journal of socket, locked (*fd) and read (*cur, *n: entries the
 * caller frees): 0, or a negative code with nothing held (*cur NULL, *n 0). */
static int open_locked(const char *dir, int socket, int *fd, struct pmon_journal_entry **cur,
		       int *n, char *why, size_t len)
{
	*cur = NULL;
	*n = 0;
	if ((*fd = jlock(dir, socket, why, len)) < 0)
		return *fd;
	int rc = load(dir, socket, cur, n, why, len);
	if (rc)
		close(*fd);
	return rc;
}

static int same(const struct pmon_journal_entry *a, const struct pmon_journal_entry *b)
{
	return !strcmp(a->box, b->box) && a->cpu == b->cpu && a->kind == b->kind && a->idx == b->idx;
}

/* Merge e[0..n) into a socket's journal under its lock; a register not
 * there yet is appended.  One already there: add keeps its entry (the
 * oldest value) unless that is another agent's (mask 0), which the new one
 * replaces; disown replaces it with the new one marked another agent's. */
static int merge(const char *dir, int socket, const struct pmon_journal_entry *e, int n,
		 int disown, char *why, size_t len)
{
	struct pmon_journal_entry *cur;
	int fd, ncur, rc = open_locked(dir, socket, &fd, &cur, &ncur, why, len);
	if (rc)
		return rc;
	struct pmon_journal_entry *all = realloc(cur, sizeof(*all) * (size_t)(ncur + n + 1));
	if (!all) {
		rc = pmon_why(why, len, PMON_ENOMEM, "out of memory");
	} else {
		cur = all;
		for (int i = 0; i < n; i++) {
			int j = 0;
			while (j < ncur && !same(&cur[j], &e[i]))
				j++;
			/* add: a register another agent had is pmon's again */
			if (!disown && j < ncur && cur[j].mask)
				continue;
			cur[j] = e[i];
			if (disown)
				cur[j].mask = 0;
			ncur += j == ncur;
		}
		rc = store(dir, socket, cur, ncur, why, len);
	}
	free(cur);
	close(fd);
	return rc;
}

int pmon_journal_add(const char *dir, int socket, const struct pmon_journal_entry *e, int n,
		     char *why, size_t len)
{
	return merge(dir, socket, e, n, 0, why, len);
}

int pmon_journal_disown(const char *dir, int socket, const struct pmon_journal_entry *e, int n,
			char *why, size_t len)
{
	return merge(dir, socket, e, n, 1, why, len);
}

int pmon_journal_drop(const char *dir, int socket, const char *box, int cpu, char *why, size_t len)
{
	struct pmon_journal_entry *cur;
	int fd, ncur, rc = open_locked(dir, socket, &fd, &cur, &ncur, why, len), k = 0;
	if (rc)
		return rc;
	for (int i = 0; i < ncur; i++)
		if (strcmp(cur[i].box, box) || cur[i].cpu != cpu || !cur[i].mask)
			cur[k++] = cur[i];
	if (k != ncur)
		rc = store(dir, socket, cur, k, why, len);
	free(cur);
	close(fd);
	return rc;
}

int pmon_journal_load(const char *dir, int socket, struct pmon_journal_entry **e, int *n,
		      char *why, size_t len)
{
	int fd, rc = open_locked(dir, socket, &fd, e, n, why, len);
	if (!rc)
		close(fd);
	return rc;
}
