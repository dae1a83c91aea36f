"""Unmanaged views of arrays for deep recursive kernels.

numba counts references to every array a compiled function receives: each call increments and
decrements the count of each array argument with an atomic instruction. A recursive search that
passes twenty arrays down millions of times spends a third of its time there (measured on the
double-dummy search). :func:`_borrowed` gives a view of the same memory with no reference count
(numba then skips the atomics); the caller keeps the original array alive for as long as the view
is used, which holds when views are made at the entry of a search and dropped at its end.

Passing arrays at all costs time too: numba passes each array argument as seven to nine machine
words, so a recursion that reads nineteen arrays moves some 160 words a call.
:func:`_address` and :func:`_view_maker` let it pass one small array of addresses and shapes
instead and rebuild unmanaged views from it where it needs them (``dd_search._reach``).

jit-compiled; inputs not checked.
"""

from numba import types
from numba.extending import intrinsic


@intrinsic
def _borrowed(typingctx, array):
    """A view of ``array`` (same data, shape and strides) without a reference count."""

    def codegen(context, builder, signature, args):
        source = context.make_array(signature.args[0])(context, builder, args[0])
        view = context.make_array(signature.return_type)(context, builder)
        context.populate_array(view, data=source.data, shape=source.shape,
                               strides=source.strides, itemsize=source.itemsize, meminfo=None)
        return view._getvalue()

    return array(array), codegen


@intrinsic
def _address(typingctx, array):
    """The address of ``array``'s first element, as a number (see :func:`_view_maker`)."""

    def codegen(context, builder, signature, args):
        source = context.make_array(signature.args[0])(context, builder, args[0])
        return builder.ptrtoint(source.data, context.get_value_type(types.int64))

    return types.int64(array), codegen


def _view_maker(dtype, ndim):
    """An intrinsic ``view(desc, at)``: an unmanaged C-contiguous array of ``dtype`` (``ndim``
    1 or 2) on the memory at address ``desc[at]`` (:func:`_address` of an array the caller
    keeps alive), ``desc[at + 1]`` rows long and (2-d) ``desc[at + 2]`` wide; ``desc`` is a
    C-contiguous int64 array."""
    array_type = types.Array(dtype, ndim, 'C')

    @intrinsic
    def view(typingctx, desc, at):
        def codegen(context, builder, signature, args):
            table = context.make_array(signature.args[0])(context, builder, args[0])
            words = [builder.load(builder.gep(table.data, [builder.add(
                args[1], context.get_constant(types.int64, k))])) for k in range(3)]
            out = context.make_array(array_type)(context, builder)
            data = builder.inttoptr(words[0], context.get_data_type(dtype).as_pointer())
            itemsize = context.get_constant(types.intp,
                                            context.get_abi_sizeof(context.get_data_type(dtype)))
            if ndim == 1:
                shape, strides = [words[1]], [itemsize]
            else:
                shape, strides = [words[1], words[2]], [builder.mul(words[2], itemsize), itemsize]
            context.populate_array(out, data=data, shape=shape, strides=strides,
                                   itemsize=itemsize, meminfo=None)
            return out._getvalue()

        return array_type(types.Array(types.int64, 1, 'C'), types.int64), codegen

    return view
