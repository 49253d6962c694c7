/*
 * boxlock.h - one process at a time per box: a lock the kernel holds for
 * the owner and drops when it exits, however it exits.
 *
 * Every box instance pmon programs (an uncore box of one socket, or the core
 * PMU of one CPU) has a lock file in the run directory, named for the box:
 *     DIR/socket0.snbep_unc_pcu.lock      DIR/cpu3.snb_ep.lock
 * The owner holds an open-file-description write lock (fcntl F_OFD_SETLK)
 * on byte 0 and writes its pid into the file; the kernel releases the lock
 * when the owner closes it or dies (kill -9 included), so a crash never
 * leaves a box locked.  A release unlocks the file and keeps it open for
 * the set's next take (a session's start then costs a lock, a check and a
 * write per box, not a file made, mapped and removed); the set's end
 * (pmon_boxlocks_fini: machine close) unlinks it while holding the lock,
 * and so does another owner's release.  A taker checks that the file it
 * locked is still the one at the path, so an unlink never lets two owners
 * in.
 * The file is PMON_BOXLOCK_FILE_SIZE bytes, the pid first; the owner maps
 * it, and a process that takes the box by force (PMON_FORCE=1) writes its
 * pid at PMON_BOXLOCK_MARK_AT, which the owner's reads see.
 * Byte 1 is reserved for a later read-only sharing mode: readers of one
 * owner's counts would hold shared (F_RDLCK) locks there, which F_OFD_GETLK
 * tells apart from the owner's byte.
 *
 * Within one process, one struct pmon_boxlocks (one per machine handle)
 * counts references, so sessions of one machine share boxes as before; two
 * machine handles of one process exclude each other like two processes.
 *
 * DIR is $PMON_RUN_DIR, or /run/pmon (made 0700 when missing; /run is a
 * tmpfs emptied at boot, so nothing of a crash outlives a reboot there).
 * DIR must be the effective user's and writable by nobody else, its
 * parents writable by nobody else (but sticky ones, as /tmp) and owned by
 * root or the effective user, and its
 * files are made and opened as safefile.h says: 0600, never through a
 * link.  A lock file whose lock is held by something other than an owner's
 * write lock (a read lock of another user, through a file description it
 * got somehow) is told apart from a live owner in the refusal.
 *
 * The emulated machine exists only inside its process (one per process):
 * its locks are kept in the process, at no cost (a set of dir ""), and two
 * handles of it still exclude each other.
 */
#ifndef PMON_BOXLOCK_H
#define PMON_BOXLOCK_H

#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>

#include "safefile.h"

#define PMON_RUN_DIR_DEFAULT "/run/pmon"

struct pmon_boxlock {
	char name[80];      /* "socket0.snbep_unc_pcu" */
	int fd;
	int dirfd;          /* the run directory it is in (pmon_rundir's: not closed) */
	long pid;           /* the process that opened it (a fork's child does not
			       reuse a kept file: it shares the parent's lock) */
	dev_t dev;          /* the lock file's identity */
	ino_t ino;
	int refs;           /* 0: kept, unlocked, for the next take */
	uint32_t *mark;     /* pmon_boxlock_mark: in the mapped lock file, or malloc'ed */
	void *map;          /* the lock file's first page, mapped (file locks) */
};

struct pmon_boxlocks {
	char dir[PATH_MAX];       /* "": in-process locks (the emulated machine's) */
	struct pmon_boxlock *e;
	int n, cap;
};

/* The run directory: $PMON_RUN_DIR or the default, into buf. */
void pmon_run_dir(char *buf, size_t len);

/* Open name, a file of the run directory dir, for reading and writing as
 * how says (safefile.h: new files 0600), creating dir first when it is
 * missing, refusing a dir or file that is not safe.  The fd
 * (close-on-exec; *dirfd the directory's, *st the file's fstat, each when
 * not NULL), or a negative PMON code (PMON_EPERM when the directory is not
 * writable or not safe, else PMON_EIO) with why saying "cannot <what>:
 * <reason>" and how to choose another run directory. */
int pmon_run_open(const char *dir, const char *name, enum pmon_safe_how how, const char *what,
		  int *dirfd, struct stat *st, char *why, size_t len);

/* The lock name of a box: "socket<S>.<pmu>" (cpu < 0) or "cpu<N>.<pmu>". */
void pmon_boxlock_name(char *buf, size_t len, const char *pmu, int socket, int cpu);

void pmon_boxlocks_init(struct pmon_boxlocks *L, const char *dir);
/* Release every lock still held. */
void pmon_boxlocks_fini(struct pmon_boxlocks *L);
/* Take the box's lock, or add a reference when this set holds it already.
 * PMON_EBUSY when another owner holds it (*holder = its pid, 0 if unknown,
 * and why says so), PMON_EPERM/PMON_EIO when the directory or file cannot
 * be made (why names the path and PMON_RUN_DIR). */
int pmon_boxlock_take(struct pmon_boxlocks *L, const char *name, long *holder,
		      char *why, size_t len);
/* Drop one reference; the last releases the lock.  Returns the references left. */
int pmon_boxlock_drop(struct pmon_boxlocks *L, const char *name);
/* PMON_FORCE: another owner holds name, and this process takes the box
 * anyway: mark the owner's lock so that the owner learns it at its next
 * read (pmon_boxlock_mark).  PMON_OK, or an error with why. */
int pmon_boxlock_force(struct pmon_boxlocks *L, const char *name, char *why, size_t len);
/* The word the owner of name (this set) watches while it holds the box: 0,
 * or the pid of a process that took the box by force (PMON_FORCE).  In the
 * lock file at PMON_BOXLOCK_MARK_AT (mapped shared), or in the process for
 * in-process locks; NULL when name is not held. */
const volatile uint32_t *pmon_boxlock_mark(const struct pmon_boxlocks *L, const char *name);
#define PMON_BOXLOCK_MARK_AT 32
#define PMON_BOXLOCK_FILE_SIZE 64

/* References this set holds on name (0: not held). */
int pmon_boxlock_refs(const struct pmon_boxlocks *L, const char *name);

#endif
