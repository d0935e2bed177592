/*
 * Shared by _wlk.c and _sembleu.c: a graph given by the lists of
 * mrkit.features.triples.Triples (n variables; instances [(i, concept)]; attributes
 * [(i, role, value)]; relations [(i, role, j)]) read into arrays.  Nodes are the
 * variables (labelled with their concept's number, `empty` without one) and then one node
 * per attribute value (labelled with the value's number); edges are the relations and then
 * one edge per attribute, as (source, role number, target).  Strings are numbered through
 * a Python dict shared by both graphs of a pair (equal strings, equal numbers).
 */
#ifndef MRKIT_TRIPLE_ARRAYS_H
#define MRKIT_TRIPLE_ARRAYS_H

#include "../../align/_intern.h"

/* Fills *n, *m and the four arrays (allocated here, n + 1 and m + 1 long; the caller
 * frees them, also after a 0 or -1).  1 ok, 0 not this shape (no exception), -1 error. */
static int read_triple_arrays(PyObject *nobj, PyObject *inst, PyObject *attr, PyObject *rel, PyObject *strings,
                              int64_t empty, Py_ssize_t *n, Py_ssize_t *m,
                              int64_t **label_out, int64_t **es_out, int64_t **er_out, int64_t **et_out) {
    Py_ssize_t nv = PyLong_AsSsize_t(nobj);
    if (nv < 0) { if (PyErr_Occurred()) PyErr_Clear(); return 0; }
    if (!PyList_Check(inst) || !PyList_Check(attr) || !PyList_Check(rel)) return 0;
    Py_ssize_t ni = PyList_GET_SIZE(inst), na = PyList_GET_SIZE(attr), nr = PyList_GET_SIZE(rel);
    *n = nv + na;
    *m = nr + na;
    int64_t *label = *label_out = malloc(sizeof(int64_t) * (*n + 1));
    int64_t *es = *es_out = malloc(sizeof(int64_t) * (*m + 1));
    int64_t *er = *er_out = malloc(sizeof(int64_t) * (*m + 1));
    int64_t *et = *et_out = malloc(sizeof(int64_t) * (*m + 1));
    if (!label || !es || !er || !et) { PyErr_NoMemory(); return -1; }
    for (Py_ssize_t v = 0; v < nv; v++) label[v] = empty;
    for (Py_ssize_t j = 0; j < ni; j++) {
        PyObject *t = PyList_GET_ITEM(inst, j);
        if (!PyTuple_Check(t) || PyTuple_GET_SIZE(t) != 2) return 0;
        Py_ssize_t i = PyLong_AsSsize_t(PyTuple_GET_ITEM(t, 0));
        if (i < 0 || i >= nv) { if (PyErr_Occurred()) PyErr_Clear(); return 0; }
        int64_t c = intern_obj(strings, PyTuple_GET_ITEM(t, 1));
        if (c < 0) return -1;
        label[i] = c;
    }
    Py_ssize_t e = 0;
    for (Py_ssize_t j = 0; j < nr; j++, e++) {
        PyObject *t = PyList_GET_ITEM(rel, j);
        if (!PyTuple_Check(t) || PyTuple_GET_SIZE(t) != 3) return 0;
        Py_ssize_t s = PyLong_AsSsize_t(PyTuple_GET_ITEM(t, 0));
        Py_ssize_t o = PyLong_AsSsize_t(PyTuple_GET_ITEM(t, 2));
        if (s < 0 || s >= nv || o < 0 || o >= nv) { if (PyErr_Occurred()) PyErr_Clear(); return 0; }
        int64_t r = intern_obj(strings, PyTuple_GET_ITEM(t, 1));
        if (r < 0) return -1;
        es[e] = s; er[e] = r; et[e] = o;
    }
    for (Py_ssize_t j = 0; j < na; j++, e++) {
        PyObject *t = PyList_GET_ITEM(attr, j);
        if (!PyTuple_Check(t) || PyTuple_GET_SIZE(t) != 3) return 0;
        Py_ssize_t s = PyLong_AsSsize_t(PyTuple_GET_ITEM(t, 0));
        if (s < 0 || s >= nv) { if (PyErr_Occurred()) PyErr_Clear(); return 0; }
        int64_t r = intern_obj(strings, PyTuple_GET_ITEM(t, 1));
        if (r < 0) return -1;
        int64_t val = intern_obj(strings, PyTuple_GET_ITEM(t, 2));
        if (val < 0) return -1;
        label[nv + j] = val;
        es[e] = s; er[e] = r; et[e] = nv + j;
    }
    return 1;
}

#endif
