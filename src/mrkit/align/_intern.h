/*
 * Shared by align/_kernel.c and metrics/amr/_triple_arrays.h (a metric's C may include the
 * engine's header, not the other way round): the number of a Python object in a dict used
 * as a string table.
 */
#ifndef MRKIT_INTERN_H
#define MRKIT_INTERN_H

/* number of a Python object in dict d (setdefault to len(d)); -1 on error */
static int64_t intern_obj(PyObject *d, PyObject *key) {
    PyObject *v = PyDict_GetItemWithError(d, key);
    if (v) return (int64_t)PyLong_AsLongLong(v);
    if (PyErr_Occurred()) return -1;
    PyObject *num = PyLong_FromSsize_t(PyDict_GET_SIZE(d));
    if (!num) return -1;
    int rc = PyDict_SetItem(d, key, num);
    Py_DECREF(num);
    if (rc < 0) return -1;
    return (int64_t)PyDict_GET_SIZE(d) - 1;
}

#endif
