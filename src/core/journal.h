/* SPDX-License-Identifier: MIT */
/*
 * journal: what probecost changes on the system, written down as it happens,
 * so that what a probecost killed outright (SIGKILL, a crash, the OOM killer)
 * left behind is undone by the next one.  cleanup.h undoes everything on every
 * exit path a process survives; the journal covers the one it does not.
 *
 * Each process that changes things (run, probes) keeps one file in a private
 * state directory (/run/probecost as root, else $XDG_RUNTIME_DIR/probecost,
 * mode 0700, owned by us): "owner PID START NS" then one line per change,
 * "+KIND KEY [DETAIL]" when made and "-KIND KEY" when undone.  The file is
 * removed when the process exits cleanly.  A sweep (at the start and the end
 * of every run and probes) reads the files whose owner is dead (the PID is gone
 * or now belongs to a process started later) and undoes what they still hold:
 *
 *   pgid N BOOT      kill -KILL the process group N, unless its leader started
 *                    after BOOT (ns of CLOCK_BOOTTIME): the number was reused
 *   instance PATH    rmdir a tracefs instance (which disables its events)
 *   uprobe G/E DIR FILE  remove the uprobe event G/E from DIR/uprobe_events,
 *                    only while it is defined on FILE
 *   buildid LINK     remove perf's build-id cache entry LINK (~/.debug/.build-id/
 *                    XX/REST) and the directory it points to, that we added
 *   tmpdir PATH      remove a private temporary directory and all below it
 *                    (only while it is a directory of ours, not a link)
 *   rundir PATH DEV:INO PIDFILE  remove a daemon's run directory that we made,
 *                    only while it is still that directory (device, inode, ours)
 *                    and PATH/PIDFILE names no running process
 *   umount PATH NS   unmount the tracefs probecost mounted at PATH in mount
 *                    namespace NS, once no live probecost uses that namespace
 *
 * Sweeps hold an flock on the state directory, so two probecost starting at
 * once do not undo the same thing twice.  PROBECOST_STATE_DIR overrides the
 * directory (tests).
 */
#ifndef PCOST_JOURNAL_H
#define PCOST_JOURNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/*
 * Open this process's journal (creating the state directory) and sweep what
 * dead probecost processes left.  Idempotent.  0, or -errno with a line in err
 * (the state directory is unusable: someone else owns it, wrong mode).
 * *swept (may be NULL): how many leftovers were undone; after an opening
 * that passed NULL, the first call that passes it is told that count.
 */
int pcost_journal_open(unsigned *swept, char *err, size_t len);
bool pcost_journal_is_open(void);

/* The state directory ("" before pcost_journal_open()). */
const char *pcost_state_dir(void);

/* Record a change made / undone.  No-ops when no journal is open.  Not
 * async-signal-safe (the undo paths of a second Ctrl-C do not record: the
 * journal is then kept and the next sweep finds those things gone). */
void pcost_journal_add(const char *kind, const char *key, const char *detail);
void pcost_journal_del(const char *kind, const char *key);

/* A process group we started (cleanup.h's pcost_child_add/remove, once the journal is open). */
void pcost_journal_child(pid_t pgid, bool add);

/* Keep the journal file at exit: something it records is still in place on
 * purpose (a tracefs mount another live probecost uses). */
void pcost_journal_keep(void);

/* Undo what dead owners left (the sweep open() runs); how many things. */
unsigned pcost_journal_sweep(void);

/* pid is a process that runs (exists and is not a zombie). */
bool pcost_process_running(pid_t pid);

/* Another live probecost (not us) with a journal in our mount namespace. */
bool pcost_journal_others_alive(void);

/* Our mount namespace as "mnt:[4026531841]" ("" when unknown). */
const char *pcost_mount_ns(void);

/*
 * A private directory for tool outputs: mkdtemp under $TMPDIR (else /tmp),
 * mode 0700, so no other user can plant or read a name in it; journaled.
 * 0, or -errno and a line in err.  remove() deletes its files and itself
 * (not from a signal handler: undo functions unlink their own names and
 * rmdir instead).
 */
int pcost_private_dir_make(char *dir, size_t len, char *err, size_t errlen);
void pcost_private_dir_remove(const char *dir);

/* A daemon's run directory we just made (path exists, ours): journaled with its
 * device and inode, and pidfile (a name in it, "" for none) that names a daemon
 * using it.  Undone with pcost_journal_del("rundir", path). */
void pcost_journal_rundir(const char *path, const char *pidfile);

/* A uprobe event definition GROUP/EVENT on file in dir/uprobe_events, added
 * (about to be: a record of what may appear is harmless) or removed. */
void pcost_journal_uprobe(const char *dir, const char *name, const char *file, bool add);

/* Is tracefs mounted at path (in our mount namespace)?  Here, below tracefs.c
 * (which records in the journal what the sweep undoes), since the sweep asks too. */
bool pcost_tracefs_mounted_at(const char *path);

#endif
