/* A regular file mapped read-only, for the readers that take a file's bytes (the scanner
 * `_cut`, the coders of `features/_triples.c`: codecs/penman_units.py).
 *
 *   map(fd, label) -> Mapped | None
 *   Mapped: the file's bytes as a read-only buffer (len(m) bytes); m.line_end(pos);
 *           m.release(start, end[, stride]); m.shortened()
 *
 * Reading a corpus with read() copies every byte into memory the process touches for the
 * first time (a page fault per 4 KB, ~1-2 us each on the 2-core VM; and the copy): `mrkit
 * smatch` on 25,000 SICK pairs read both files twice, once to find the graphs and once per
 * chunk for their text, ~1,700 of its ~4,100 page faults with two threads (issue 14).  A
 * mapping reads the page cache where it is: no copy, and a fault maps 16 pages at a time.
 *
 * The mapping is the file rounded up to a page (the bytes after its end read as zeros,
 * as the kernel fills the last page), then one page of zeros: a reader that looks a few
 * bytes past the end of its buffer reads zeros, as it would past a bytes object.
 *
 * The pages a reader is done with are given back (release): the process's resident
 * memory stays flat however large the file (the page cache keeps the bytes).  Given
 * back a stride at a time: in a process with two threads every madvise that drops pages
 * interrupts the other core to flush its TLB (`smatch -j 2` on 25,000 SICK pairs: 67 of
 * them, ~3 ms of CPU, where a chunk's release was one call).
 *
 * A mapped file that another process shortens while it is read raises SIGBUS on the
 * pages past its new end (so does a read error of its storage).  This module catches
 * SIGBUS for the addresses of its mappings: the pages from the faulting one to the
 * mapping's end are replaced by zeros (the access then reads zeros, as a read() of the
 * changed file would have read other bytes) and the mapping is marked shortened(), which
 * the readers check after each piece of work and report as bad input (codecs/
 * penman_units.py `check_whole`: one line naming the file, exit status 2).  A thread
 * still working for a run that was abandoned reads zeros and is not checked: the process
 * goes on.  Where the zeros cannot be mapped, the handler writes that line itself and ends
 * the process with status 2.  A SIGBUS at any other address goes to the handler that was
 * there before (the default: the process ends with the signal).
 *
 * None (the caller reads the file) for what is not a regular file, an empty file, a file
 * too large for the address space, a platform without mmap, or more than MAX_MAPS
 * mappings at once. */

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#if defined(__unix__) || defined(__APPLE__)
#define HAVE_MAPS 1
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#else
#define HAVE_MAPS 0
#endif

#define MAX_MAPS 64
#define MSG_MAX 512

#if HAVE_MAPS
/* the mappings a SIGBUS may come from: [lo, hi), whether pages of it were lost (the file
 * shortened), and the line to print if zeros cannot replace them (lo 0: a free slot).
 * Slots change with the GIL held; the handler only reads them (and sets `lost`). */
static struct {
    _Atomic uintptr_t lo;
    uintptr_t hi;
    _Atomic int lost;
    size_t msglen;
    char msg[MSG_MAX];
} maps_table[MAX_MAPS];
static int handler_installed;
static struct sigaction previous_action;
static uintptr_t page_size;   /* set before the handler is installed (sysconf is not for handlers) */

static void on_sigbus(int sig, siginfo_t *info, void *context) {
    uintptr_t a = (uintptr_t)info->si_addr;
    for (int i = 0; i < MAX_MAPS; i++) {
        uintptr_t lo = atomic_load(&maps_table[i].lo);
        if (lo && a >= lo && a < maps_table[i].hi) {
            /* zeros from the faulting page to the end: the access runs again and reads them */
            uintptr_t page = a / page_size * page_size;
            void *z = mmap((void *)page, maps_table[i].hi - page, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED,
                           -1, 0);
            if (z != MAP_FAILED) {
                atomic_store(&maps_table[i].lost, 1);
                return;
            }
            ssize_t w = write(2, maps_table[i].msg, maps_table[i].msglen);
            (void)w;
            _exit(2);
        }
    }
    /* not one of ours: what was there before */
    if ((previous_action.sa_flags & SA_SIGINFO) && previous_action.sa_sigaction) {
        previous_action.sa_sigaction(sig, info, context);
        return;
    }
    if (!(previous_action.sa_flags & SA_SIGINFO) && previous_action.sa_handler != SIG_DFL
        && previous_action.sa_handler != SIG_IGN) {
        previous_action.sa_handler(sig);
        return;
    }
    /* the default: put it back, and the faulting access runs again and ends the process */
    sigaction(SIGBUS, &previous_action, NULL);
}

static int install_handler(void) {
    if (handler_installed) return 0;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_sigbus;
    sa.sa_flags = SA_SIGINFO;
    sigemptyset(&sa.sa_mask);
    if (sigaction(SIGBUS, &sa, &previous_action) != 0) return -1;
    handler_installed = 1;
    return 0;
}

/* the slot of [lo, hi), its message set; -1 when every slot is taken */
static int register_map(uintptr_t lo, uintptr_t hi, const char *label, Py_ssize_t label_len) {
    for (int i = 0; i < MAX_MAPS; i++) {
        if (atomic_load(&maps_table[i].lo)) continue;
        static const char head[] = "mrkit: ", tail[] = ": cannot read: the file was shortened, or its storage failed, while it was read\n";
        size_t room = MSG_MAX - (sizeof head - 1) - (sizeof tail - 1);
        size_t n = (size_t)label_len < room ? (size_t)label_len : room;
        char *m = maps_table[i].msg;
        memcpy(m, head, sizeof head - 1);
        memcpy(m + sizeof head - 1, label, n);
        memcpy(m + sizeof head - 1 + n, tail, sizeof tail - 1);
        maps_table[i].msglen = sizeof head - 1 + n + sizeof tail - 1;
        maps_table[i].hi = hi;
        atomic_store(&maps_table[i].lost, 0);
        atomic_store(&maps_table[i].lo, lo);   /* last: the slot is whole once it is seen */
        return i;
    }
    return -1;
}
#endif

typedef struct {
    PyObject_HEAD
    char *base;           /* the mapping (NULL: none) */
    size_t span;          /* bytes mapped: the file to a whole page, and a page of zeros */
    Py_ssize_t len;       /* the file's bytes when it was mapped */
    int slot;             /* its slot of maps_table, -1 none */
    Py_ssize_t exports;   /* buffers handed out and not released */
    Py_ssize_t pend_lo, pend_hi;   /* bytes released with a stride and not yet given back
                                    * (pend_hi <= pend_lo: none) */
} Mapped;

static void mapped_dealloc(PyObject *self) {
    Mapped *m = (Mapped *)self;
#if HAVE_MAPS
    if (m->slot >= 0) atomic_store(&maps_table[m->slot].lo, (uintptr_t)0);
    if (m->base) munmap(m->base, m->span);
#endif
    Py_TYPE(self)->tp_free(self);
}

static int mapped_getbuffer(PyObject *self, Py_buffer *view, int flags) {
    Mapped *m = (Mapped *)self;
    if (PyBuffer_FillInfo(view, self, m->base, m->len, 1, flags) < 0) return -1;
    m->exports++;
    return 0;
}

static void mapped_releasebuffer(PyObject *self, Py_buffer *view) {
    (void)view;
    ((Mapped *)self)->exports--;
}

static Py_ssize_t mapped_length(PyObject *self) { return ((Mapped *)self)->len; }

/* line_end(pos) -> the position after the first "\n" at or after pos, or len(m) when no
 * line ends there: where a read of bytes up to pos, completed to the end of its line
 * (readline), ends */
static PyObject *mapped_line_end(PyObject *self, PyObject *arg) {
    Mapped *m = (Mapped *)self;
    Py_ssize_t pos = PyLong_AsSsize_t(arg);
    if (pos == -1 && PyErr_Occurred()) return NULL;
    if (pos < 0 || pos > m->len) {
        PyErr_SetString(PyExc_ValueError, "line_end: 0 <= pos <= len");
        return NULL;
    }
    const char *nl = pos < m->len ? memchr(m->base + pos, '\n', (size_t)(m->len - pos)) : NULL;
    return PyLong_FromSsize_t(nl ? nl - m->base + 1 : m->len);
}

/* the whole pages of bytes [start, end) given back (madvise MADV_DONTNEED; the last page
 * with the file's end) */
static void give_back(Mapped *m, Py_ssize_t start, Py_ssize_t end) {
#if HAVE_MAPS
    if (m->base && end > start) {
        uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
        uintptr_t a = ((uintptr_t)m->base + (uintptr_t)start + page - 1) / page * page;
        uintptr_t b = (uintptr_t)m->base + (uintptr_t)end;
        b = end == m->len ? (b + page - 1) / page * page : b / page * page;
        if (b > a) madvise((void *)a, (size_t)(b - a), MADV_DONTNEED);
    }
#else
    (void)m; (void)start; (void)end;
#endif
}

/* release(start, end, stride=0): the whole pages of bytes [start, end) given back, so
 * that this process's resident memory does not grow with the file as it is read: the
 * bytes stay in the page cache, and reading them again maps them again (same bytes: the
 * mapping is never written).  With a stride, the ranges released are gathered (the span
 * from the least start to the greatest end: ranges released out of order by two threads
 * may take a range in between that a thread still reads, which it then maps again) and
 * given back in one call once that span reaches `stride` bytes, or reaches the file's
 * end: at most `stride` bytes of a file stay mapped for nothing. */
static PyObject *mapped_release(PyObject *self, PyObject *args) {
    Mapped *m = (Mapped *)self;
    Py_ssize_t start, end, stride = 0;
    if (!PyArg_ParseTuple(args, "nn|n", &start, &end, &stride)) return NULL;
    if (start < 0) start = 0;
    if (end > m->len) end = m->len;
    if (end <= start) Py_RETURN_NONE;
    if (stride <= 0) {
        give_back(m, start, end);
        Py_RETURN_NONE;
    }
    if (m->pend_hi <= m->pend_lo) {
        m->pend_lo = start;
        m->pend_hi = end;
    } else {
        if (start < m->pend_lo) m->pend_lo = start;
        if (end > m->pend_hi) m->pend_hi = end;
    }
    if (m->pend_hi - m->pend_lo >= stride || m->pend_hi == m->len) {
        give_back(m, m->pend_lo, m->pend_hi);
        m->pend_lo = m->pend_hi = 0;
    }
    Py_RETURN_NONE;
}

/* shortened() -> whether pages of the file were lost while it was mapped (a SIGBUS:
 * shortened by another process, or its storage failed): what was read of it since is zeros */
static PyObject *mapped_shortened(PyObject *self, PyObject *unused) {
    (void)unused;
#if HAVE_MAPS
    Mapped *m = (Mapped *)self;
    if (m->slot >= 0 && atomic_load(&maps_table[m->slot].lost)) Py_RETURN_TRUE;
#else
    (void)self;
#endif
    Py_RETURN_FALSE;
}

static PyMethodDef mapped_methods[] = {
    {"shortened", mapped_shortened, METH_NOARGS,
     "shortened() -> bool: pages of the file were lost while it was mapped (what was read since is zeros)"},
    {"release", mapped_release, METH_VARARGS,
     "release(start, end, stride=0): give back the whole pages of bytes [start, end) (read again, they are mapped again); with a stride, gathered and given back once they span stride bytes or reach the end"},
    {"line_end", mapped_line_end, METH_O,
     "line_end(pos) -> the position after the first newline at or after pos (len when none)"},
    {NULL, NULL, 0, NULL}};

static PyBufferProcs mapped_as_buffer = {mapped_getbuffer, mapped_releasebuffer};
static PySequenceMethods mapped_as_sequence = {mapped_length};

static PyTypeObject mapped_type = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "mrkit.codecs._mapped.Mapped",
    .tp_basicsize = sizeof(Mapped),
    .tp_dealloc = mapped_dealloc,
    .tp_as_sequence = &mapped_as_sequence,
    .tp_as_buffer = &mapped_as_buffer,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "A regular file mapped read-only: its bytes as a read-only buffer.",
    .tp_methods = mapped_methods,
};

static PyObject *m_map(PyObject *self, PyObject *args) {
    int fd;
    const char *label;
    Py_ssize_t label_len;
    if (!PyArg_ParseTuple(args, "is#", &fd, &label, &label_len)) return NULL;
#if HAVE_MAPS
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size <= 0) Py_RETURN_NONE;
    long page = sysconf(_SC_PAGESIZE);
    if (page <= 0) Py_RETURN_NONE;
    page_size = (uintptr_t)page;
    if ((unsigned long long)st.st_size > (unsigned long long)PY_SSIZE_T_MAX / 2) Py_RETURN_NONE;
    size_t len = (size_t)st.st_size;
    size_t span = (len + (size_t)page - 1) / (size_t)page * (size_t)page + (size_t)page;
    if (install_handler() < 0) Py_RETURN_NONE;
    /* the whole span as zeros, then the file over its start */
    char *base = mmap(NULL, span, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (base == MAP_FAILED) Py_RETURN_NONE;
    if (mmap(base, len, PROT_READ, MAP_PRIVATE | MAP_FIXED, fd, 0) == MAP_FAILED) {
        munmap(base, span);
        Py_RETURN_NONE;
    }
    int slot = register_map((uintptr_t)base, (uintptr_t)base + span, label, label_len);
    if (slot < 0) {
        munmap(base, span);
        Py_RETURN_NONE;
    }
    Mapped *m = PyObject_New(Mapped, &mapped_type);
    if (!m) {
        atomic_store(&maps_table[slot].lo, (uintptr_t)0);
        munmap(base, span);
        return NULL;
    }
    m->base = base;
    m->span = span;
    m->len = (Py_ssize_t)len;
    m->slot = slot;
    m->exports = 0;
    m->pend_lo = m->pend_hi = 0;
    return (PyObject *)m;
#else
    (void)fd; (void)label; (void)label_len;
    Py_RETURN_NONE;
#endif
}

static PyMethodDef methods[] = {
    {"map", m_map, METH_VARARGS,
     "map(fd, label) -> Mapped | None: the regular file open as fd mapped read-only (None: read it instead)"},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef moduledef = {PyModuleDef_HEAD_INIT, "_mapped",
                                       "Regular files mapped read-only for the byte readers.", -1, methods};

PyMODINIT_FUNC PyInit__mapped(void) {
    if (PyType_Ready(&mapped_type) < 0) return NULL;
    PyObject *module = PyModule_Create(&moduledef);
    if (!module) return NULL;
    Py_INCREF(&mapped_type);
    if (PyModule_AddObject(module, "Mapped", (PyObject *)&mapped_type) < 0) {
        Py_DECREF(&mapped_type);
        Py_DECREF(module);
        return NULL;
    }
    return module;
}
