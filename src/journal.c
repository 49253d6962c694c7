/* journal.c - per-socket journal of original register values (see journal.h). */
#define _GNU_SOURCE
#include <dirent.h>
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

#define JOURNAL_MAX_BYTES (1 << 20)   /* a bigger journal is not pmon's */
#define LINE_MAX_BYTES 400

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

/* ------------------------------------------------------------------ owners */

/* Field 22 (start time) and field 3 (state) of /proc/PID/stat: 0, or an errno. */
static int proc_start(long pid, unsigned long long *start, char *state)
{
	char path[64], buf[1024];
	snprintf(path, sizeof(path), "/proc/%ld/stat", pid);
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0)
		return errno;
	ssize_t n = read(fd, buf, sizeof(buf) - 1);
	int e = errno;
	close(fd);
	if (n <= 0)
		return n < 0 ? e : EINVAL;
	buf[n] = 0;
	/* the command name (field 2) may hold spaces and parentheses: the
	 * fields after it follow its last ')' */
	char *p = strrchr(buf, ')'), *save = NULL, *tok;
	if (!p)
		return EINVAL;
	int field = 3;
	for (tok = strtok_r(p + 1, " ", &save); tok; tok = strtok_r(NULL, " ", &save), field++) {
		if (field == 3)
			*state = tok[0];
		if (field == 22) {
			char *end;
			errno = 0;
			*start = strtoull(tok, &end, 10);
			return errno || end == tok ? EINVAL : 0;
		}
	}
	return EINVAL;
}

const struct pmon_owner *pmon_owner_self(void)
{
	static __thread struct pmon_owner self;   /* per thread: no lock; a fork re-reads */
	long pid = (long)getpid();
	if (self.pid != pid) {
		char st;
		unsigned long long start = 0;
		if (proc_start(pid, &start, &st))
			start = 0;
		self.start = start;
		self.pid = pid;
	}
	return &self;
}

int pmon_owner_alive(const struct pmon_owner *o)
{
	unsigned long long start;
	char state = 0;
	if (o->pid <= 0 || o->pid > INT_MAX)
		return 0;
	int e = proc_start(o->pid, &start, &state);
	if (e == ENOENT || e == ESRCH)
		return 0;
	if (e)
		return 1;                      /* cannot tell: not to be taken for dead */
	return start == o->start && state != 'Z' && state != 'X';
}

static int same_owner(const struct pmon_owner *a, const struct pmon_owner *b)
{
	return a->pid == b->pid && a->start == b->start;
}

/* ------------------------------------------------------------- line format */

static uint32_t fnv1a(const char *s, size_t n)
{
	uint32_t h = 2166136261u;
	for (size_t i = 0; i < n; i++) {
		h ^= (unsigned char)s[i];
		h *= 16777619u;
	}
	return h;
}

int pmon_journal_format(const struct pmon_journal_entry *e, char *buf, size_t len)
{
	char wrote[24];
	if (e->has_wrote)
		snprintf(wrote, sizeof(wrote), "0x%" PRIx64, e->wrote);
	else
		snprintf(wrote, sizeof(wrote), "-");
	int k = snprintf(buf, len, "owner=%ld:%llu box=%s cpu=%d reg=%s idx=%d value=0x%" PRIx64
			 " wrote=%s mask=0x%" PRIx64, e->owner.pid, e->owner.start, e->box, e->cpu,
			 pmon_reg_kind_name(e->kind), e->idx, e->value, wrote, e->mask);
	if (k < 0 || (size_t)k >= len)
		return -1;
	int t = snprintf(buf + k, len - (size_t)k, " sum=%08" PRIx32 "\n", fnv1a(buf, (size_t)k));
	if (t < 0 || (size_t)(k + t) >= len)
		return -1;
	return k + t;
}

int pmon_journal_parse(const char *line, struct pmon_journal_entry *e, char *why, size_t len)
{
	char buf[LINE_MAX_BYTES + 2], again[LINE_MAX_BYTES + 2], kind[16], wrote[24];
	size_t n = strlen(line);
	memset(e, 0, sizeof(*e));
	if (n && line[n - 1] == '\n')
		n--;
	if (n > LINE_MAX_BYTES)
		return pmon_why(why, len, -1, "longer than any entry (%zu bytes)", n), -1;
	memcpy(buf, line, n);
	buf[n] = 0;
	memcpy(again, line, n);           /* kept whole: buf is cut at its sum */
	if (memchr(buf, 0, n))
		return pmon_why(why, len, -1, "holds a NUL byte"), -1;
	char *sum = NULL;
	for (char *p = strstr(buf, " sum="); p; p = strstr(p + 1, " sum="))
		sum = p;
	if (!sum)
		return pmon_why(why, len, -1, "has no sum= (truncated, or not written by pmon)"), -1;
	char *end;
	errno = 0;
	unsigned long h = strtoul(sum + 5, &end, 16);
	if (end != sum + 13 || *end || errno || h != fnv1a(buf, (size_t)(sum - buf)))
		return pmon_why(why, len, -1, "its sum does not match its text (damaged or edited)"), -1;
	*sum = 0;
	int used = -1;
	if (sscanf(buf, "owner=%ld:%llu box=%47[a-z0-9_] cpu=%d reg=%15[a-z_] idx=%d value=0x%" SCNx64
		   " wrote=%23s mask=0x%" SCNx64 "%n", &e->owner.pid, &e->owner.start, e->box, &e->cpu,
		   kind, &e->idx, &e->value, wrote, &e->mask, &used) != 9 || used < 0 || buf[used])
		return pmon_why(why, len, -1, "is not a journal entry"), -1;
	int k = kind_of(kind);
	if (k < 0)
		return pmon_why(why, len, -1, "names no register kind pmon journals: %s", kind), -1;
	e->kind = (enum pmon_reg_kind)k;
	if (strcmp(wrote, "-")) {
		errno = 0;
		e->wrote = strtoull(wrote, &end, 16);
		e->has_wrote = 1;
		if (errno || *end || strncmp(wrote, "0x", 2))
			return pmon_why(why, len, -1, "wrote= is not a value: %s", wrote), -1;
	}
	/* only the text pmon writes for these values is an entry (no sign,
	 * no leading zero, no spaces, a lowercase sum) */
	char mine[LINE_MAX_BYTES + 2];
	int m = pmon_journal_format(e, mine, sizeof(mine));
	if (m < 1 || (size_t)m - 1 != n || memcmp(mine, again, n))
		return pmon_why(why, len, -1, "is not written as pmon writes an entry"), -1;
	return 0;
}

/* ------------------------------------------------------------------- files */

static void jpath(char *buf, size_t len, const char *dir, int socket, const char *suffix)
{
	snprintf(buf, len, "%s/socket%d.journal%s", dir, socket, suffix);
}

/* Temporaries of the socket's journal a killed process left (every one:
 * they are written under the journal's lock, which the caller holds). */
static void clean_temporaries(const char *dir, int socket)
{
	char prefix[64];
	snprintf(prefix, sizeof(prefix), "socket%d.journal.tmp", socket);
	DIR *d = opendir(dir);
	if (!d)
		return;
	struct dirent *de;
	while ((de = readdir(d)))
		if (!strncmp(de->d_name, prefix, strlen(prefix)))
			unlinkat(dirfd(d), de->d_name, 0);
	closedir(d);
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

/* The journal's text (*text malloc'ed, NUL-terminated; NULL when there is
 * no journal). */
static int read_whole(const char *path, char **text, char *why, size_t len)
{
	char w[PATH_MAX + 256];
	*text = NULL;
	/* as every file of the run directory: never through a link, and only
	 * a file of this user no other can write (one swapped in through a
	 * parent directory another user controls is not pmon's) */
	int fd = pmon_safe_open(path, O_RDONLY, PMON_SAFE_EXISTING, NULL, w, sizeof(w));
	if (fd < 0) {
		if (fd == PMON_ENODEV && errno == ENOENT)
			return PMON_OK;
		return pmon_why(why, len, PMON_EIO, "cannot read the journal: %s", w);
	}
	struct stat st;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || st.st_size > JOURNAL_MAX_BYTES) {
		close(fd);
		return pmon_why(why, len, PMON_EIO, "the journal %s is not a regular file of at most "
				"%d bytes", path, JOURNAL_MAX_BYTES);
	}
	char *t = malloc((size_t)st.st_size + 1);
	size_t got = 0;
	ssize_t r = 0;
	while (t && got < (size_t)st.st_size &&
	       ((r = read(fd, t + got, (size_t)st.st_size - got)) > 0 || (r < 0 && errno == EINTR)))
		got += r > 0 ? (size_t)r : 0;
	int e = errno;
	close(fd);
	if (!t)
		return pmon_why(why, len, PMON_ENOMEM, "out of memory");
	if (r < 0) {
		free(t);
		return pmon_why(why, len, PMON_EIO, "cannot read the journal %s: %s", path, strerror(e));
	}
	t[got] = 0;
	*text = t;
	return PMON_OK;
}

/* The entries of the journal's lines that are entries; the others named in
 * bad (*nbad of them). */
static int load(const char *dir, int socket, struct pmon_journal_entry **out, int *n, char *bad,
		size_t badlen, int *nbad, char *why, size_t len)
{
	char path[PATH_MAX + 64], *text;
	jpath(path, sizeof(path), dir, socket, "");
	*out = NULL;
	*n = *nbad = 0;
	if (bad && badlen)
		bad[0] = 0;
	int rc = read_whole(path, &text, why, len);
	if (rc || !text)
		return rc;
	int cap = 0, lineno = 0;
	for (char *p = text; *p && !rc; lineno++) {
		char *nl = strchr(p, '\n'), w[160];
		size_t l = nl ? (size_t)(nl - p) : strlen(p);
		char line[LINE_MAX_BYTES + 2];
		struct pmon_journal_entry e;
		int ok;
		if (l > LINE_MAX_BYTES) {
			ok = pmon_why(w, sizeof(w), -1, "longer than any entry (%zu bytes)", l);
		} else {
			memcpy(line, p, l);
			line[l] = 0;
			ok = line[0] == '#' || !l ? 1 : pmon_journal_parse(line, &e, w, sizeof(w));
		}
		p += l + (nl != NULL);
		if (ok == 1)
			continue;
		if (ok) {
			(*nbad)++;
			pmon_why_add(bad, badlen, "; ", "%s line %d %s", path, lineno + 1, w);
			continue;
		}
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
	free(text);
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
	char path[PATH_MAX + 64], tmp[PATH_MAX + 128];
	jpath(path, sizeof(path), dir, socket, "");
	if (n == 0) {
		if (unlink(path) && errno != ENOENT)
			return pmon_why(why, len, PMON_EIO, "cannot remove %s: %s", path, strerror(errno));
		return PMON_OK;
	}
	size_t cap = 200 + (size_t)n * (LINE_MAX_BYTES + 2), at = 0;
	char *text = malloc(cap);
	if (!text)
		return pmon_why(why, len, PMON_ENOMEM, "out of memory");
	at += (size_t)snprintf(text, cap, "# pmon: original values of registers pmon changed on socket "
			       "%d; `pmon reset` puts them back (mask=0x0: another agent's, left "
			       "alone)\n", socket);
	for (int i = 0; i < n; i++) {
		int k = pmon_journal_format(&e[i], text + at, cap - at);
		if (k < 0) {
			free(text);
			return pmon_why(why, len, PMON_EINVAL, "a journal entry of %.47s does not fit a line",
					e[i].box);
		}
		at += (size_t)k;
	}
	snprintf(tmp, sizeof(tmp), "%s.tmp%ld.XXXXXX", path, (long)getpid());
	int fd = mkostemp(tmp, O_CLOEXEC);     /* 0600, O_EXCL */
	if (fd < 0) {
		int err = errno;
		free(text);
		return pmon_why(why, len, PMON_EIO, "cannot write the journal %s: cannot create a "
				"temporary file beside it: %s", path, strerror(err));
	}
	size_t done = 0;
	ssize_t w = 0;
	while (done < at && ((w = write(fd, text + done, at - done)) > 0 || (w < 0 && errno == EINTR)))
		done += w > 0 ? (size_t)w : 0;
	int err = done < at ? (w < 0 ? errno : ENOSPC) : 0;
	free(text);
	if (!err && fsync(fd))
		err = errno;
	if (close(fd) && !err)
		err = errno;
	if (!err && rename(tmp, path))
		err = errno;
	if (err) {
		unlink(tmp);
		return pmon_why(why, len, PMON_EIO, "cannot write the journal %s: %s", path,
				strerror(err));
	}
	return PMON_OK;
}

/* The journal of socket, locked (*fd) and read (*cur, *n: entries the
 * caller frees), every line an entry: 0, or a negative code with nothing
 * held (*cur NULL, *n 0). */
static int open_locked(const char *dir, int socket, int *fd, struct pmon_journal_entry **cur,
		       int *n, char *why, size_t len)
{
	char bad[1024];
	int nbad;
	*cur = NULL;
	*n = 0;
	if ((*fd = jlock(dir, socket, why, len)) < 0)
		return *fd;
	int rc = load(dir, socket, cur, n, bad, sizeof(bad), &nbad, why, len);
	if (!rc && nbad)
		rc = pmon_why(why, len, PMON_EIO, "the journal of socket %d has %d line(s) that are not "
			      "entries: %s. `pmon reset --socket %d` puts back what its entries hold and "
			      "removes the other lines; counting on socket %d needs that first",
			      socket, nbad, bad, socket, socket);
	if (rc) {
		free(*cur);
		*cur = NULL;
		*n = 0;
		close(*fd);
	}
	return rc;
}

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
		if (!cur[j].mask || same_owner(&cur[j].owner, self))
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
	int fd, ncur, rc = open_locked(dir, socket, &fd, &cur, &ncur, why, len), changed = 0;
	if (rc)
		return rc;
	if (how == ADD)
		clean_temporaries(dir, socket);
	int dead = how == ADD ? dead_owner_line(cur, ncur, e, n) : -1;
	struct pmon_journal_entry *all = NULL;
	if (dead < 0 && !(all = realloc(cur, sizeof(*all) * (size_t)(ncur + n + 1))))
		rc = pmon_why(why, len, PMON_ENOMEM, "out of memory");
	if (dead >= 0) {
		char path[PATH_MAX + 64];
		jpath(path, sizeof(path), dir, socket, "");
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
				if (j < ncur && cur[j].mask && same_owner(&cur[j].owner, self)) {
					changed |= !cur[j].has_wrote || cur[j].wrote != e[i].wrote;
					cur[j].wrote = e[i].wrote;
					cur[j].has_wrote = 1;
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
			rc = store(dir, socket, cur, ncur, why, len);
	}
	free(cur);
	close(fd);
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
	int fd, ncur, rc = open_locked(dir, socket, &fd, &cur, &ncur, why, len), k = 0;
	if (rc)
		return rc;
	for (int i = 0; i < ncur; i++) {
		int drop = 0;
		for (int j = 0; j < nb && !drop; j++)
			drop = !strcmp(cur[i].box, b[j].box) && cur[i].cpu == b[j].cpu;
		if (!drop || !cur[i].mask || !same_owner(&cur[i].owner, self))
			cur[k++] = cur[i];
	}
	if (k != ncur)
		rc = store(dir, socket, cur, k, why, len);
	free(cur);
	close(fd);
	return rc;
}

int pmon_journal_load(const char *dir, int socket, struct pmon_journal_entry **e, int *n,
		      char *bad, size_t badlen, char *why, size_t len)
{
	int nbad, fd = jlock(dir, socket, why, len);
	if (fd < 0)
		return fd;
	int rc = load(dir, socket, e, n, bad, badlen, &nbad, why, len);
	close(fd);
	return rc;
}

int pmon_journal_replace(const char *dir, int socket, const struct pmon_journal_entry *e, int n,
			 char *why, size_t len)
{
	int fd = jlock(dir, socket, why, len);
	if (fd < 0)
		return fd;
	clean_temporaries(dir, socket);
	int rc = store(dir, socket, e, n, why, len);
	close(fd);
	return rc;
}
