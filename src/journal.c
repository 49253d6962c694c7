/* journal.c - per-socket journal of original register values (see journal.h). */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <pthread.h>
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
	[REG_FILTER] = "filter", [REG_GLOBAL_CTL] = "global_ctrl", [REG_GLOBAL_OVF] = "global_ovf",
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
	long pid = pmon_self_pid();
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

/* The text of a line, built by hand: a rewrite formats every line of the
 * journal, and snprintf() was a fifth of a session's start and stop. */
struct out {
	char *p, *end;
};

static void put_str(struct out *o, const char *s)
{
	while (*s && o->p < o->end)
		*o->p++ = *s++;
	if (*s)
		o->p = o->end + 1;           /* overflowed */
}

static void put_udec(struct out *o, unsigned long long v)
{
	char d[24];
	int n = 0;
	do
		d[n++] = (char)('0' + v % 10);
	while ((v /= 10));
	while (n && o->p < o->end)
		*o->p++ = d[--n];
	if (n)
		o->p = o->end + 1;
}

static void put_dec(struct out *o, long long v)
{
	if (v < 0) {
		put_str(o, "-");
		put_udec(o, 0ull - (unsigned long long)v);
	} else {
		put_udec(o, (unsigned long long)v);
	}
}

/* v in lowercase hexadecimal, at least width digits */
static void put_hex(struct out *o, uint64_t v, int width)
{
	char d[16];
	int n = 0;
	do
		d[n++] = "0123456789abcdef"[v & 15];
	while ((v >>= 4) || n < width);
	while (n && o->p < o->end)
		*o->p++ = d[--n];
	if (n)
		o->p = o->end + 1;
}

int pmon_journal_format(const struct pmon_journal_entry *e, char *buf, size_t len)
{
	if (len < 2)
		return -1;
	struct out o = { buf, buf + len - 1 };       /* room for the NUL */
	put_str(&o, "owner=");
	put_dec(&o, e->owner.pid);
	put_str(&o, ":");
	put_udec(&o, e->owner.start);
	put_str(&o, " box=");
	char box[sizeof(e->box)];
	memcpy(box, e->box, sizeof(box));
	box[sizeof(box) - 1] = 0;
	put_str(&o, box);
	put_str(&o, " cpu=");
	put_dec(&o, e->cpu);
	put_str(&o, " reg=");
	put_str(&o, pmon_reg_kind_name(e->kind));
	put_str(&o, " idx=");
	put_dec(&o, e->idx);
	put_str(&o, " value=0x");
	put_hex(&o, e->value, 1);
	if (e->has_wrote) {
		put_str(&o, " wrote=0x");
		put_hex(&o, e->wrote, 1);
	} else {
		put_str(&o, " wrote=-");
	}
	put_str(&o, " mask=0x");
	put_hex(&o, e->mask, 1);
	if (o.p > o.end)
		return -1;
	uint32_t h = fnv1a(buf, (size_t)(o.p - buf));
	put_str(&o, " sum=");
	put_hex(&o, h, 8);
	put_str(&o, "\n");
	if (o.p > o.end)
		return -1;
	*o.p = 0;
	return (int)(o.p - buf);
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

static void jname(char *buf, size_t len, int socket, const char *suffix)
{
	snprintf(buf, len, "socket%d.journal%s", socket, suffix);
}

/* Temporaries of the socket's journal a killed process left (every one:
 * they are written under the journal's lock, which the caller holds).
 * Looked for once per process and socket (a process killed later leaves
 * one more of at most a few KB, which the next process's first change of
 * that journal removes): the scan costs as much as a rewrite. */
static void clean_temporaries(int dfd, int socket)
{
	static struct { dev_t dev; ino_t ino; int socket; long pid; } done[16];
	static int ndone;
	static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
	struct stat st;
	long pid = pmon_self_pid();
	if (fstat(dfd, &st))
		return;
	pthread_mutex_lock(&mu);
	int at = -1;
	for (int i = 0; i < ndone && at < 0; i++)
		if (done[i].dev == st.st_dev && done[i].ino == st.st_ino && done[i].socket == socket)
			at = i;
	int skip = at >= 0 && done[at].pid == pid;
	if (!skip) {
		if (at < 0)
			at = ndone < 16 ? ndone++ : (int)(st.st_ino % 16);
		done[at].dev = st.st_dev;
		done[at].ino = st.st_ino;
		done[at].socket = socket;
		done[at].pid = pid;
	}
	pthread_mutex_unlock(&mu);
	if (skip)
		return;
	char prefix[64];
	snprintf(prefix, sizeof(prefix), "socket%d.journal.tmp", socket);
	int fd = openat(dfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *d = fd < 0 ? NULL : fdopendir(fd);
	if (!d) {
		if (fd >= 0)
			close(fd);
		return;
	}
	struct dirent *de;
	while ((de = readdir(d)))
		if (!strncmp(de->d_name, prefix, strlen(prefix)))
			unlinkat(dfd, de->d_name, 0);
	closedir(d);
}

/* The locks that serialize changes to the journals: the lock files stay
 * open in the process (one per run directory and socket), and a mutex
 * orders the process's own threads, which share the open file description
 * (an OFD lock does not exclude its own description). */
static struct {
	int dfd, socket, fd;
	dev_t dev;
	ino_t ino;
} jlocks[16];
static int njlocks;
static pthread_mutex_t jlock_mu = PTHREAD_MUTEX_INITIALIZER;

/* Lock the socket's journal: 0 (*dfd the run directory's fd, not to
 * close; junlock() ends it), or a negative code with why. */
static int jlock(const char *dir, int socket, int *dfd, char *why, size_t len)
{
	char name[64], path[PATH_MAX + 64], w[PMON_WHY_LEN + 256];
	jname(name, sizeof(name), socket, ".lock");
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	pthread_mutex_lock(&jlock_mu);
	/* the directory was checked when the session's boxes were taken */
	*dfd = pmon_rundir_cached(dir, w, sizeof(w));
	if (*dfd < 0) {
		pthread_mutex_unlock(&jlock_mu);
		return pmon_why(why, len, *dfd, "cannot open the journal lock: %s", w);
	}
	int at = -1;
	for (int i = 0; i < njlocks && at < 0; i++)
		if (jlocks[i].dfd == *dfd && jlocks[i].socket == socket)
			at = i;
	for (int tries = 0; tries < 4; tries++) {
		struct stat st;
		if (at < 0) {
			int fd = pmon_safe_openat(*dfd, dir, name, O_RDWR, PMON_SAFE_ANY, &st, w,
						  sizeof(w));
			if (fd < 0) {
				pthread_mutex_unlock(&jlock_mu);
				return pmon_why(why, len, fd, "cannot open the journal lock: %s: pmon needs a "
						"run directory of its own (set PMON_RUN_DIR)", w);
			}
			if (njlocks < 16) {
				at = njlocks++;
			} else {
				at = 0;                /* none is locked: the mutex is ours */
				close(jlocks[0].fd);
			}
			jlocks[at].dfd = *dfd;
			jlocks[at].socket = socket;
			jlocks[at].fd = fd;
			jlocks[at].dev = st.st_dev;
			jlocks[at].ino = st.st_ino;
		}
		int rc = pmon_safe_lock(jlocks[at].fd, F_WRLCK, 0, 0, PMON_LOCK_WAIT_MS, path, why, len);
		if (rc) {
			pthread_mutex_unlock(&jlock_mu);
			return rc;
		}
		/* still the file at the path (one removed and made again would
		 * not exclude the processes that open the new one) */
		if (!fstatat(*dfd, name, &st, AT_SYMLINK_NOFOLLOW) && st.st_ino == jlocks[at].ino &&
		    st.st_dev == jlocks[at].dev)
			return PMON_OK;        /* jlock_mu held until junlock() */
		close(jlocks[at].fd);
		jlocks[at] = jlocks[--njlocks];
		at = -1;
	}
	pthread_mutex_unlock(&jlock_mu);
	return pmon_why(why, len, PMON_EIO, "%s keeps being replaced", path);
}

static void junlock(int dfd, int socket)
{
	struct flock fl = { .l_type = F_UNLCK, .l_whence = SEEK_SET, .l_start = 0, .l_len = 0 };
	for (int i = 0; i < njlocks; i++)
		if (jlocks[i].dfd == dfd && jlocks[i].socket == socket)
			fcntl(jlocks[i].fd, F_OFD_SETLK, &fl);
	pthread_mutex_unlock(&jlock_mu);
}

/* The last journal of each (run directory, socket) this process read or
 * wrote, trusted while the file is that one still: same inode, size and
 * modification time.  Only this user writes in the run directory, and pmon
 * always writes a new file renamed over the old, so a journal another
 * process changed is another inode; what an editor changes in place shows
 * in its size or time.  A rewrite then costs no reading and parsing.  Only
 * on a tmpfs (the default /run), which never gives an inode number twice: a
 * disk file system may give a freed one to the next file made, and two
 * rewrites of one size within one tick of the file time would look alike. */
struct jcache {
	int dfd, socket;
	dev_t dev;
	ino_t ino;
	off_t size;
	struct timespec mtime;
	struct pmon_journal_entry *e;
	int n;
};
#define NJCACHE 8
static struct jcache jcache[NJCACHE];
static int njcache;
static pthread_mutex_t jcache_mu = PTHREAD_MUTEX_INITIALIZER;

static struct jcache *jcache_find(int dfd, int socket)
{
	for (int i = 0; i < njcache; i++)
		if (jcache[i].dfd == dfd && jcache[i].socket == socket)
			return &jcache[i];
	return NULL;
}

/* Remember e[0..n) as the journal st describes (st NULL: forget it). */
static void jcache_put(int dfd, int socket, const struct stat *st,
		       const struct pmon_journal_entry *e, int n)
{
	pthread_mutex_lock(&jcache_mu);
	struct jcache *c = jcache_find(dfd, socket);
	if (!c && st) {
		c = &jcache[njcache < NJCACHE ? njcache++ : (dfd + socket) % NJCACHE];
		free(c->e);
		c->e = NULL;
	}
	if (c) {
		struct pmon_journal_entry *x = st && n ? malloc(sizeof(*x) * (size_t)n) : NULL;
		free(c->e);
		c->e = x;
		c->n = x ? n : 0;
		if (x)
			memcpy(x, e, sizeof(*x) * (size_t)n);
		c->dfd = dfd;
		c->socket = socket;
		/* no copy, no entry: nothing to match */
		c->ino = st && (x || !n) ? st->st_ino : 0;
		c->dev = st ? st->st_dev : 0;
		c->size = st ? st->st_size : -1;
		c->mtime = st ? st->st_mtim : (struct timespec){ 0, 0 };
	}
	pthread_mutex_unlock(&jcache_mu);
}

/* The entries of the journal st describes when they are the cached ones
 * (*out malloc'ed or NULL, *n): 1, else 0. */
static int jcache_get(int dfd, int socket, const struct stat *st, struct pmon_journal_entry **out,
		      int *n)
{
	int hit = 0;
	pthread_mutex_lock(&jcache_mu);
	struct jcache *c = jcache_find(dfd, socket);
	if (c && c->ino && c->ino == st->st_ino && c->dev == st->st_dev && c->size == st->st_size &&
	    c->mtime.tv_sec == st->st_mtim.tv_sec && c->mtime.tv_nsec == st->st_mtim.tv_nsec) {
		*out = c->n ? malloc(sizeof(**out) * (size_t)c->n) : NULL;
		if (*out || !c->n) {
			if (c->n)
				memcpy(*out, c->e, sizeof(**out) * (size_t)c->n);
			*n = c->n;
			hit = 1;
		}
	}
	pthread_mutex_unlock(&jcache_mu);
	return hit;
}

/* The journal's text (*text malloc'ed, NUL-terminated; NULL when there is
 * no journal). */
static int read_whole(int dfd, const char *dir, int socket, char **text, struct stat *stp,
		      char *why, size_t len)
{
	char w[PATH_MAX + 256], name[64];
	struct stat st;
	*text = NULL;
	jname(name, sizeof(name), socket, "");
	/* as every file of the run directory: never through a link, and only
	 * a file of this user no other can write */
	int fd = pmon_safe_openat(dfd, dir, name, O_RDONLY, PMON_SAFE_EXISTING, &st, w, sizeof(w));
	if (fd < 0) {
		if (fd == PMON_ENODEV && errno == ENOENT)
			return PMON_OK;
		return pmon_why(why, len, PMON_EIO, "cannot read the journal: %s", w);
	}
	if (st.st_size > JOURNAL_MAX_BYTES) {
		close(fd);
		return pmon_why(why, len, PMON_EIO, "the journal %s/%s holds %lld bytes, more than any "
				"pmon writes (%d): not pmon's; `pmon reset` cannot use it either: remove "
				"it", dir, name, (long long)st.st_size, JOURNAL_MAX_BYTES);
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
		return pmon_why(why, len, PMON_EIO, "cannot read the journal %s/%s: %s", dir, name,
				strerror(e));
	}
	t[got] = 0;
	*text = t;
	*stp = st;
	return PMON_OK;
}

/* The entries of the journal's lines that are entries; the others named in
 * bad (*nbad of them). */
static int load(int dfd, const char *dir, int socket, struct pmon_journal_entry **out, int *n,
		char *bad, size_t badlen, int *nbad, char *why, size_t len)
{
	char path[PATH_MAX + 64], *text;
	struct stat st;
	snprintf(path, sizeof(path), "%s/socket%d.journal", dir, socket);
	*out = NULL;
	*n = *nbad = 0;
	if (bad && badlen)
		bad[0] = 0;
	/* the one this process last read or wrote, when it is still there
	 * and still safe (else the open below says why not) */
	if (fstatat(dfd, path + strlen(dir) + 1, &st, AT_SYMLINK_NOFOLLOW) == 0) {
		if (S_ISREG(st.st_mode) && st.st_uid == pmon_rundir_uid() && st.st_nlink == 1 &&
		    !(st.st_mode & 077) && pmon_rundir_tmpfs(dfd) && jcache_get(dfd, socket, &st, out, n))
			return PMON_OK;
	} else if (errno == ENOENT) {
		return PMON_OK;
	}
	int rc = read_whole(dfd, dir, socket, &text, &st, why, len);
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
			/* named up to what fits; counted all */
			if (++*nbad <= 8)
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
	if (*nbad > 8)
		pmon_why_add(bad, badlen, "; ", "and %d more such lines", *nbad - 8);
	free(text);
	if (!rc && !*nbad)
		jcache_put(dfd, socket, &st, *out, *n);
	if (rc) {
		free(*out);
		*out = NULL;
		*n = 0;
	}
	return rc;
}

/* Replace the journal with these entries (none: remove it), atomically:
 * a new file renamed over it.  Not fsync'ed: the journal has to outlive
 * the process that wrote it (a kill -9), which the kernel's page cache
 * guarantees once write() returned, not a power loss or a kernel crash,
 * after which the registers are at their power-on values anyway (and the
 * default run directory, on /run, is gone). */
static int store(int dfd, const char *dir, int socket, const struct pmon_journal_entry *e, int n,
		 char *why, size_t len)
{
	static unsigned long seq;
	char name[64], tmp[128];
	jname(name, sizeof(name), socket, "");
	jcache_put(dfd, socket, NULL, NULL, 0);
	if (n == 0) {
		if (unlinkat(dfd, name, 0) && errno != ENOENT)
			return pmon_why(why, len, PMON_EIO, "cannot remove %s/%s: %s", dir, name,
					strerror(errno));
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
	/* a name of this process no other uses (0600, O_EXCL, no link followed) */
	int fd = -1;
	for (int tries = 0; fd < 0 && tries < 16; tries++) {
		snprintf(tmp, sizeof(tmp), "%s.tmp%ld.%lu", name, (long)pmon_owner_self()->pid,
			 __atomic_add_fetch(&seq, 1, __ATOMIC_RELAXED));
		fd = openat(dfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
		if (fd < 0 && errno != EEXIST)
			break;
	}
	if (fd < 0) {
		int err = errno;
		free(text);
		return pmon_why(why, len, PMON_EIO, "cannot write the journal %s/%s: cannot create a "
				"temporary file beside it: %s", dir, name, strerror(err));
	}
	size_t done = 0;
	ssize_t w = 0;
	while (done < at && ((w = write(fd, text + done, at - done)) > 0 || (w < 0 && errno == EINTR)))
		done += w > 0 ? (size_t)w : 0;
	int err = done < at ? (w < 0 ? errno : ENOSPC) : 0;
	struct stat st;
	int known = !err && !fstat(fd, &st);
	free(text);
	if (close(fd) && !err)
		err = errno;
	if (!err && renameat(dfd, tmp, dfd, name))
		err = errno;
	if (err) {
		unlinkat(dfd, tmp, 0);
		return pmon_why(why, len, PMON_EIO, "cannot write the journal %s/%s: %s", dir, name,
				strerror(err));
	}
	if (known)
		jcache_put(dfd, socket, &st, e, n);
	return PMON_OK;
}

/* The journal of socket, locked (*fd; *dfd the run directory's) and read
 * (*cur, *n: entries the caller frees), every line an entry: 0, or a
 * negative code with nothing held (*cur NULL, *n 0). */
static int open_locked(const char *dir, int socket, int *fd, int *dfd,
		       struct pmon_journal_entry **cur, int *n, char *why, size_t len)
{
	char bad[1024];
	int nbad;
	*cur = NULL;
	*n = 0;
	if ((*fd = jlock(dir, socket, dfd, why, len)) < 0)
		return *fd;
	int rc = load(*dfd, dir, socket, cur, n, bad, sizeof(bad), &nbad, why, len);
	if (!rc && nbad)
		rc = pmon_why(why, len, PMON_EIO, "the journal of socket %d has %d line(s) that are not "
			      "entries: %s. `pmon reset --socket %d` puts back what its entries hold and "
			      "removes the other lines; counting on socket %d needs that first",
			      socket, nbad, bad, socket, socket);
	if (rc) {
		free(*cur);
		*cur = NULL;
		*n = 0;
		junlock(*dfd, socket);
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
	int fd, dfd, ncur, rc = open_locked(dir, socket, &fd, &dfd, &cur, &ncur, why, len), changed = 0;
	if (rc)
		return rc;
	if (how == ADD)
		clean_temporaries(dfd, socket);
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
			rc = store(dfd, dir, socket, cur, ncur, why, len);
	}
	free(cur);
	junlock(dfd, socket);
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
	int fd, dfd, ncur, rc = open_locked(dir, socket, &fd, &dfd, &cur, &ncur, why, len);
	if (rc)
		return rc;
	struct pmon_journal_entry *all = realloc(cur, sizeof(*all) * (size_t)(ncur + 1));
	if (!all) {
		free(cur);
		junlock(dfd, socket);
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
	rc = store(dfd, dir, socket, cur, ncur, why, len);
	free(cur);
	junlock(dfd, socket);
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
	int fd, dfd, ncur, rc = open_locked(dir, socket, &fd, &dfd, &cur, &ncur, why, len), k = 0;
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
		rc = store(dfd, dir, socket, cur, k, why, len);
	free(cur);
	junlock(dfd, socket);
	return rc;
}

int pmon_journal_load(const char *dir, int socket, struct pmon_journal_entry **e, int *n,
		      char *bad, size_t badlen, char *why, size_t len)
{
	int nbad, dfd, fd = jlock(dir, socket, &dfd, why, len);
	if (fd < 0)
		return fd;
	int rc = load(dfd, dir, socket, e, n, bad, badlen, &nbad, why, len);
	junlock(dfd, socket);
	return rc;
}

int pmon_journal_replace(const char *dir, int socket, const struct pmon_journal_entry *e, int n,
			 char *why, size_t len)
{
	int dfd, fd = jlock(dir, socket, &dfd, why, len);
	if (fd < 0)
		return fd;
	clean_temporaries(dfd, socket);
	int rc = store(dfd, dir, socket, e, n, why, len);
	junlock(dfd, socket);
	return rc;
}
