/* How this process's C heap gives memory back, for a command that streams a corpus in chunks.
 *
 *   keep_freed(top_pad) -> bool
 *
 * glibc's mallopt(M_TOP_PAD, top_pad): every heap (the main one and each thread's arena)
 * grows by at least top_pad bytes and keeps that much free at its top when it shrinks.
 * A streaming run frees each chunk's buffers (the files' bytes, the codes) before the next
 * chunk allocates them again; by default the heap gives most of them back and every page
 * is faulted in again, at ~1-4 us a fault (issue 14: `mrkit smatch` on 25,000 SICK pairs
 * took ~3,000 page faults in its chunks, ~1,500 with a 16 MB pad; with two threads, the
 * second thread's arena as many again).  Process-wide: the command line sets it for the
 * commands that stream (score, smatch), never the library on import.  False where there
 * is no such setting (not glibc): nothing changes. */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

static PyObject *m_keep_freed(PyObject *self, PyObject *arg) {
    long long pad = PyLong_AsLongLong(arg);
    if (pad == -1 && PyErr_Occurred()) return NULL;
    if (pad < 0 || pad > INT_MAX) {
        PyErr_SetString(PyExc_ValueError, "keep_freed: a number of bytes from 0 to INT_MAX");
        return NULL;
    }
#if defined(__GLIBC__) && defined(M_TOP_PAD)
    return PyBool_FromLong(mallopt(M_TOP_PAD, (int)pad) == 1);
#else
    Py_RETURN_FALSE;
#endif
}

static PyMethodDef methods[] = {
    {"keep_freed", m_keep_freed, METH_O,
     "keep_freed(top_pad) -> bool: mallopt(M_TOP_PAD, top_pad) where the C library has it"},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef moduledef = {PyModuleDef_HEAD_INIT, "_memory",
                                       "How the process's C heap keeps freed memory (glibc's M_TOP_PAD).", -1,
                                       methods};

PyMODINIT_FUNC PyInit__memory(void) { return PyModule_Create(&moduledef); }
