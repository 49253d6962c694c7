/* journal_file.c - the journal's files (journal.h): their names, the lock
 * that serializes changes, the cache of the last journal read or written,
 * reading every line and writing a new file renamed over the old. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
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
#include "journal_internal.h"
#include "safefile.h"
#include "why.h"

#define JOURNAL_MAX_BYTES (1 << 20)   /* a bigger journal is not pmon's */


static void jname(char *buf, size_t len, int socket, const char *suffix)
{
	snprintf(buf, len, "socket%d.journal%s", socket, suffix);
}

/* Temporaries of the socket's journal a killed process left (every one:
 * they are written under the journal's lock, which the caller holds).
 * Looked for once per process and socket (a process killed later leaves
 * one more of at most a few KB, which the next process's first change of
 * that journal removes): the scan costs as much as a rewrite. */
void pmon_jfile_clean(int dfd, int socket)
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
 * close; pmon_jfile_unlock() ends it), or a negative code with why. */
int pmon_jfile_lock(const char *dir, int socket, int *dfd, char *why, size_t len)
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
			return PMON_OK;        /* jlock_mu held until pmon_jfile_unlock() */
		close(jlocks[at].fd);
		jlocks[at] = jlocks[--njlocks];
		at = -1;
	}
	pthread_mutex_unlock(&jlock_mu);
	return pmon_why(why, len, PMON_EIO, "%s keeps being replaced", path);
}

void pmon_jfile_unlock(int dfd, int socket)
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
int pmon_jfile_load(int dfd, const char *dir, int socket, struct pmon_journal_entry **out, int *n,
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
int pmon_jfile_store(int dfd, const char *dir, int socket, const struct pmon_journal_entry *e, int n,
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
int pmon_jfile_open_locked(const char *dir, int socket, int *fd, int *dfd,
		       struct pmon_journal_entry **cur, int *n, char *why, size_t len)
{
	char bad[1024];
	int nbad;
	*cur = NULL;
	*n = 0;
	if ((*fd = pmon_jfile_lock(dir, socket, dfd, why, len)) < 0)
		return *fd;
	int rc = pmon_jfile_load(*dfd, dir, socket, cur, n, bad, sizeof(bad), &nbad, why, len);
	if (!rc && nbad)
		rc = pmon_why(why, len, PMON_EIO, "the journal of socket %d has %d line(s) that are not "
			      "entries: %s. `pmon reset --socket %d` puts back what its entries hold and "
			      "removes the other lines; counting on socket %d needs that first",
			      socket, nbad, bad, socket, socket);
	if (rc) {
		free(*cur);
		*cur = NULL;
		*n = 0;
		pmon_jfile_unlock(*dfd, socket);
	}
	return rc;
}
