/* boxlock.c - per-box locks between processes (see boxlock.h). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pthread.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "pmon/pmon.h"
#include "boxlock.h"
#include "env.h"
#include "safefile.h"
#include "why.h"

void pmon_run_dir(char *buf, size_t len)
{
	snprintf(buf, len, "%s", pmon_env_path("PMON_RUN_DIR", PMON_RUN_DIR_DEFAULT));
}

void pmon_boxlock_name(char *buf, size_t len, const char *pmu, int socket, int cpu)
{
	if (cpu >= 0)
		snprintf(buf, len, "cpu%d.%s", cpu, pmu);
	else
		snprintf(buf, len, "socket%d.%s", socket, pmu);
}

void pmon_boxlocks_init(struct pmon_boxlocks *L, const char *dir)
{
	memset(L, 0, sizeof(*L));
	snprintf(L->dir, sizeof(L->dir), "%s", dir);
}

static void lock_path(const struct pmon_boxlocks *L, const char *name, char *buf, size_t len)
{
	snprintf(buf, len, "%s/%s.lock", L->dir, name);
}

/* In-process locks (the emulated machine's: there is one per process):
 * which set owns each box. */
struct local_lock {
	const struct pmon_boxlocks *owner;
	uint32_t *mark;                    /* the owner's pmon_boxlock_mark */
	char name[80];
};
static struct local_lock *local;
static int nlocal, caplocal;
static pthread_mutex_t local_mu = PTHREAD_MUTEX_INITIALIZER;

static const struct pmon_boxlocks *local_owner(const char *name, int *at)
{
	for (int i = 0; i < nlocal; i++)
		if (!strcmp(local[i].name, name)) {
			*at = i;
			return local[i].owner;
		}
	return NULL;
}

static int local_take(const struct pmon_boxlocks *L, const char *name, uint32_t *mark)
{
	int at = 0, rc = PMON_OK;
	pthread_mutex_lock(&local_mu);
	if (local_owner(name, &at)) {
		rc = PMON_EBUSY;
	} else if (nlocal == caplocal) {
		int cap = caplocal ? 2 * caplocal : 32;
		struct local_lock *x = realloc(local, sizeof(*x) * (size_t)cap);
		rc = x ? PMON_OK : PMON_ENOMEM;
		if (x) {
			local = x;
			caplocal = cap;
		}
	}
	if (rc == PMON_OK) {
		local[nlocal].owner = L;
		local[nlocal].mark = mark;
		snprintf(local[nlocal].name, sizeof(local[nlocal].name), "%s", name);
		nlocal++;
	}
	pthread_mutex_unlock(&local_mu);
	return rc;
}

static void local_drop(const struct pmon_boxlocks *L, const char *name)
{
	int at = 0;
	pthread_mutex_lock(&local_mu);
	if (local_owner(name, &at) == L)
		local[at] = local[--nlocal];
	if (!nlocal) {
		free(local);
		local = NULL;
		caplocal = 0;
	}
	pthread_mutex_unlock(&local_mu);
}

static void release(struct pmon_boxlocks *L, struct pmon_boxlock *b)
{
	if (!L->dir[0]) {
		local_drop(L, b->name);     /* no forcer can reach the mark after it */
		free(b->mark);
		return;
	}
	char file[96];
	struct stat st;
	snprintf(file, sizeof(file), "%s.lock", b->name);
	/* a kept file (refs 0) is ours to remove only when we can lock it
	 * and it is still the one at the path */
	struct flock fl = { .l_type = F_WRLCK, .l_whence = SEEK_SET, .l_start = 0, .l_len = 1 };
	if (b->refs == 0 && b->pid != pmon_self_pid()) {
		/* a fork's copy of the parent's kept file: its lock is the
		 * parent's (one open file description), the file too */
		munmap(b->map, PMON_BOXLOCK_FILE_SIZE);
		close(b->fd);
		return;
	}
	if (b->refs > 0 || (!fcntl(b->fd, F_OFD_SETLK, &fl) &&
			    !fstatat(b->dirfd, file, &st, AT_SYMLINK_NOFOLLOW) &&
			    st.st_ino == b->ino && st.st_dev == b->dev))
		unlinkat(b->dirfd, file, 0);   /* locked: nobody can own the old file meanwhile */
	munmap(b->map, PMON_BOXLOCK_FILE_SIZE);
	close(b->fd);
}

void pmon_boxlocks_fini(struct pmon_boxlocks *L)
{
	for (int i = 0; i < L->n; i++)
		release(L, &L->e[i]);
	free(L->e);
	L->e = NULL;
	L->n = L->cap = 0;
}

static struct pmon_boxlock *find(const struct pmon_boxlocks *L, const char *name)
{
	for (int i = 0; i < L->n; i++)
		if (!strcmp(L->e[i].name, name))
			return &L->e[i];
	return NULL;
}

int pmon_boxlock_refs(const struct pmon_boxlocks *L, const char *name)
{
	const struct pmon_boxlock *b = find(L, name);
	return b ? b->refs : 0;
}

int pmon_run_open(const char *dir, const char *name, enum pmon_safe_how how, const char *what,
		  int *dirfd, struct stat *st, char *why, size_t len)
{
	char w[PMON_WHY_LEN + 256];
	int dfd = pmon_rundir(dir, 1, w, sizeof(w));
	if (dfd < 0)
		return pmon_why(why, len, dfd, "cannot %s: %s", what, w);
	int fd = pmon_safe_openat(dfd, dir, name, O_RDWR, how, st, w, sizeof(w));
	if (fd < 0)
		return pmon_why(why, len, fd, "cannot %s: %s: pmon needs a run directory of its own "
				"(set PMON_RUN_DIR)", what, w);
	if (dirfd)
		*dirfd = dfd;
	return fd;
}

static long read_pid(int fd)
{
	char buf[32];
	ssize_t n = pread(fd, buf, sizeof(buf) - 1, 0);
	if (n <= 0)
		return 0;
	buf[n] = 0;
	long pid = strtol(buf, NULL, 10);
	return pid > 0 ? pid : 0;
}

/* Why the lock of fd (path) is not to be had: an owner's write lock (a
 * live owner: *holder its pid, and PMON_EBUSY), or a lock an owner never
 * takes (a read lock of a process that is not pmon's owner; the file's pid
 * then a stale one, *holder 0): PMON_EBUSY with why saying which. */
static int busy(int fd, const char *path, long *holder, char *why, size_t len)
{
	struct flock fl = { .l_type = F_WRLCK, .l_whence = SEEK_SET, .l_start = 0, .l_len = 1 };
	long named = read_pid(fd);
	*holder = named;
	if (fcntl(fd, F_OFD_GETLK, &fl) || fl.l_type != F_RDLCK)
		return PMON_EBUSY;    /* an owner's write lock (or gone since: busy anyway) */
	unsigned uid;
	int wr;
	long pid = pmon_lock_holder(fd, &uid, &wr);
	int alive = named > 0 && (kill((pid_t)named, 0) == 0 || errno == EPERM);
	char who[96] = "a process not found in /proc";
	if (pid > 0)
		snprintf(who, sizeof(who), "process %ld (uid %u)", pid, uid);
	*holder = 0;
	return pmon_why(why, len, PMON_EBUSY, "%s is held by %s with a read lock, which no pmon "
			"owner takes: not a live owner; the pid the file names (%ld) is %s, so "
			"the file is a stale lock: end that process, or remove %s", path, who,
			named, alive ? "running" : "not running", path);
}

/* Open and lock the file once: 0 locked (*fdp, *dirfdp: the directory it
 * is in), 1 the file was replaced meanwhile (retry), or a negative PMON
 * code. */
static int try_lock(struct pmon_boxlocks *L, const char *name, int *fdp, int *dirfdp,
		    struct stat *stp, long *holder, char *why, size_t len)
{
	char path[PATH_MAX + 96], file[96];
	struct stat a, b;
	int dfd;
	lock_path(L, name, path, sizeof(path));
	snprintf(file, sizeof(file), "%s.lock", name);
	/* a box's lock file is removed at each release: usually a new one */
	int fd = pmon_run_open(L->dir, file, PMON_SAFE_ANY_NEW_FIRST, "make the lock file", &dfd, &a,
			       why, len);
	if (fd < 0)
		return fd;
	struct flock fl = { .l_type = F_WRLCK, .l_whence = SEEK_SET, .l_start = 0, .l_len = 1 };
	if (fcntl(fd, F_OFD_SETLK, &fl) != 0) {
		int e = errno, rc = PMON_EIO;
		if (e == EAGAIN || e == EACCES)
			rc = busy(fd, path, holder, why, len);
		else
			pmon_why(why, len, PMON_EIO, "cannot lock %s: %s", path, strerror(e));
		close(fd);
		return rc;
	}
	/* the file locked is still the one at the path (a release unlinks
	 * it, locked, between our open and our lock) */
	if (fstatat(dfd, file, &b, AT_SYMLINK_NOFOLLOW) || a.st_ino != b.st_ino ||
	    a.st_dev != b.st_dev) {
		close(fd);
		return 1;
	}
	char pid[PMON_BOXLOCK_FILE_SIZE] = "";
	snprintf(pid, sizeof(pid), "%ld\n", pmon_self_pid());
	if ((a.st_size > PMON_BOXLOCK_FILE_SIZE && ftruncate(fd, PMON_BOXLOCK_FILE_SIZE)) ||
	    pwrite(fd, pid, sizeof(pid), 0) != (ssize_t)sizeof(pid)) {
		int e = errno;
		unlinkat(dfd, file, 0);
		close(fd);
		return pmon_why(why, len, PMON_EIO, "cannot write the lock file %s: %s", path,
				strerror(e));
	}
	*fdp = fd;
	*dirfdp = dfd;
	*stp = a;
	return 0;
}

/* Take again the kept file of b (refs 0: unlocked, still open and mapped):
 * 0 taken, 1 not usable any more (b discarded: take a new file), or
 * PMON_EBUSY with *holder and why as busy() says. */
static int retake(struct pmon_boxlocks *L, struct pmon_boxlock *b, long *holder, char *why,
		  size_t len)
{
	char file[96], path[PATH_MAX + 96], w[PMON_WHY_LEN + 256];
	struct stat st;
	snprintf(file, sizeof(file), "%s.lock", b->name);
	lock_path(L, b->name, path, sizeof(path));
	/* the run directory checked, as at every take: still the one of b? */
	int dfd = pmon_rundir(L->dir, 1, w, sizeof(w));
	struct flock fl = { .l_type = F_WRLCK, .l_whence = SEEK_SET, .l_start = 0, .l_len = 1 };
	if (b->pid != pmon_self_pid()) {
		/* kept by the parent before a fork: its open file description
		 * is the parent's too, and a lock through it would not exclude
		 * the parent; left to the parent, untouched */
		munmap(b->map, PMON_BOXLOCK_FILE_SIZE);
		close(b->fd);
		*b = L->e[--L->n];
		return 1;
	}
	if (dfd == b->dirfd) {
		if (fcntl(b->fd, F_OFD_SETLK, &fl)) {
			int e = errno;
			if (e == EAGAIN || e == EACCES)
				return busy(b->fd, path, holder, why, len);
		} else if (!fstatat(dfd, file, &st, AT_SYMLINK_NOFOLLOW) && st.st_ino == b->ino &&
			   st.st_dev == b->dev) {
			char pid[PMON_BOXLOCK_FILE_SIZE] = "";
			snprintf(pid, sizeof(pid), "%ld\n", pmon_self_pid());
			if (pwrite(b->fd, pid, sizeof(pid), 0) == (ssize_t)sizeof(pid)) {
				b->refs = 1;
				return 0;
			}
		}
	}
	/* another directory now, a file removed or replaced by another
	 * owner's release, or not writable: a new file */
	fl.l_type = F_UNLCK;
	fcntl(b->fd, F_OFD_SETLK, &fl);
	munmap(b->map, PMON_BOXLOCK_FILE_SIZE);
	close(b->fd);
	*b = L->e[--L->n];
	return 1;
}

int pmon_boxlock_take(struct pmon_boxlocks *L, const char *name, long *holder, char *why,
		      size_t len)
{
	struct pmon_boxlock *b = find(L, name);
	*holder = 0;
	if (why && len)
		why[0] = 0;
	if (b && b->refs > 0) {
		b->refs++;
		return PMON_OK;
	}
	int rc = 1;
	/* a file this set kept from its last use: lock it again */
	if (b && (rc = retake(L, b, holder, why, len)) == 0)
		return PMON_OK;
	if (L->n == L->cap) {
		int cap = L->cap ? 2 * L->cap : 16;
		struct pmon_boxlock *e = realloc(L->e, sizeof(*e) * (size_t)cap);
		if (!e)
			return pmon_why(why, len, PMON_ENOMEM, "out of memory");
		L->e = e;
		L->cap = cap;
	}
	int fd = -1, dfd = -1;
	struct stat st = { 0 };
	uint32_t *mark = NULL;
	void *map = NULL;
	if (!L->dir[0]) {
		if (!(mark = calloc(1, sizeof(*mark))))
			return pmon_why(why, len, PMON_ENOMEM, "out of memory");
		if ((rc = local_take(L, name, mark)) == PMON_EBUSY)
			*holder = pmon_self_pid();
		if (rc)
			free(mark);
	}
	for (int tries = 0; rc == 1 && tries < 100; tries++)
		rc = try_lock(L, name, &fd, &dfd, &st, holder, why, len);
	if (rc == PMON_EBUSY && !*holder && why[0])
		return rc;         /* not a live owner: busy() said why */
	if (rc == PMON_EBUSY) {
		char where[PATH_MAX + 128];
		if (L->dir[0])
			snprintf(where, sizeof(where), "lock %s/%s.lock", L->dir, name);
		else
			snprintf(where, sizeof(where), "the emulated machine's lock, in this process");
		if (*holder == pmon_self_pid())
			return pmon_why(why, len, PMON_EBUSY, "%s is already held by this process "
					"(pid %ld) through another pmon machine handle (the sessions "
					"of one handle share their boxes; two handles exclude each "
					"other like two processes) (%s)", name, *holder, where);
		if (*holder > 0)
			return pmon_why(why, len, PMON_EBUSY, "%s is in use by process %ld (%s)", name,
					*holder, where);
		return pmon_why(why, len, PMON_EBUSY, "%s is in use by another process (%s)", name,
				where);
	}
	if (rc == 1)
		return pmon_why(why, len, PMON_EIO, "%s/%s.lock keeps being replaced", L->dir, name);
	if (rc == PMON_ENOMEM)
		return pmon_why(why, len, rc, "out of memory");
	if (rc)
		return rc;
	if (L->dir[0]) {
		/* the owner watches the mark a forcer writes in the file */
		map = mmap(NULL, PMON_BOXLOCK_FILE_SIZE, PROT_READ, MAP_SHARED, fd, 0);
		if (map == MAP_FAILED) {
			int e = errno;
			char path[PATH_MAX + 96], file[96];
			lock_path(L, name, path, sizeof(path));
			snprintf(file, sizeof(file), "%s.lock", name);
			unlinkat(dfd, file, 0);
			close(fd);
			return pmon_why(why, len, PMON_EIO, "cannot map the lock file %s: %s", path,
					strerror(e));
		}
		mark = (uint32_t *)((char *)map + PMON_BOXLOCK_MARK_AT);
	}
	b = &L->e[L->n++];
	memset(b, 0, sizeof(*b));
	snprintf(b->name, sizeof(b->name), "%s", name);
	b->fd = fd;
	b->dirfd = dfd;
	b->dev = st.st_dev;
	b->ino = st.st_ino;
	b->pid = pmon_self_pid();
	b->refs = 1;
	b->mark = mark;
	b->map = map;
	return PMON_OK;
}

const volatile uint32_t *pmon_boxlock_mark(const struct pmon_boxlocks *L, const char *name)
{
	const struct pmon_boxlock *b = find(L, name);
	return b && b->refs > 0 ? b->mark : NULL;
}

int pmon_boxlock_force(struct pmon_boxlocks *L, const char *name, char *why, size_t len)
{
	uint32_t me = (uint32_t)pmon_self_pid();
	if (!L->dir[0]) {
		int at = 0;
		pthread_mutex_lock(&local_mu);
		if (local_owner(name, &at))
			__atomic_store_n(local[at].mark, me, __ATOMIC_RELAXED);
		pthread_mutex_unlock(&local_mu);
		return PMON_OK;
	}
	char path[PATH_MAX + 96], file[96], w[PMON_WHY_LEN + 256];
	lock_path(L, name, path, sizeof(path));
	snprintf(file, sizeof(file), "%s.lock", name);
	int fd = pmon_run_open(L->dir, file, PMON_SAFE_EXISTING, "open the lock file", NULL, NULL, w,
			       sizeof(w));
	if (fd < 0)
		return pmon_why(why, len, fd, "cannot mark %s as taken by force: %s", name, w);
	int ok = pwrite(fd, &me, sizeof(me), PMON_BOXLOCK_MARK_AT) == (ssize_t)sizeof(me);
	int e = errno;
	close(fd);
	return ok ? PMON_OK : pmon_why(why, len, PMON_EIO, "cannot mark %s as taken by force: %s",
				       path, strerror(e));
}

int pmon_boxlock_drop(struct pmon_boxlocks *L, const char *name)
{
	struct pmon_boxlock *b = find(L, name);
	if (!b)
		return 0;
	if (--b->refs > 0)
		return b->refs;
	if (L->dir[0]) {
		/* the file is kept, open, mapped and unlocked, for the set's next
		 * take (removed by pmon_boxlocks_fini, or by another owner's
		 * release); another process may take it meanwhile */
		struct flock fl = { .l_type = F_UNLCK, .l_whence = SEEK_SET, .l_start = 0, .l_len = 1 };
		fcntl(b->fd, F_OFD_SETLK, &fl);
		return 0;
	}
	release(L, b);
	*b = L->e[--L->n];
	return 0;
}
