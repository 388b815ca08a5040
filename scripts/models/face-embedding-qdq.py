#!/usr/bin/env python3
"""The face embedding model's int8 copy (scripts/models/quantize-face-embedding.sh), the graph's half.

  expose FP32.onnx OUT.onnx           the float model with every tensor an output (calibration reads them)
  quantize FP32.onnx RANGES.json OUT.onnx
                                      static QDQ quantization from the calibrated ranges

Quantization, as onnxruntime's CPU provider fuses it (DequantizeLinear -> Conv -> QuantizeLinear into
QLinearConv, Add into QLinearAdd, a ReLU6 Clip folded into the uint8 range that follows it):
- activations: uint8, one scale and zero point a tensor, from the calibrated min and max (0 always
  inside, so the convolutions' zero padding is exact), on every activation a Conv or an Add reads;
- weights: int8, symmetric, one scale per output channel; biases int32 at input scale x weight scale;
- the last three convolutions (1x1 to 512, the global depthwise 7x7, the 1x1 to the 128-d embedding)
  stay float: quantized, they moved the held-out embeddings 2-3 times further from the float ones,
  and they are a few percent of the model's arithmetic.
Needs only the `onnx` and `numpy` Python packages (Debian: python3-onnx, python3-numpy).
"""
import json
import sys

import numpy as np
import onnx
from onnx import helper, numpy_helper

FLOAT_CONVS_AT_END = 3


def expose(src, dst):
    m = onnx.load(src)
    g = m.graph
    have = {o.name for o in g.output}
    for n in g.node:
        if n.op_type == 'Constant':
            continue
        for o in n.output:
            if o not in have:
                g.output.append(helper.make_tensor_value_info(o, onnx.TensorProto.FLOAT, None))
    onnx.save(m, dst)


def quantize(src, ranges_path, dst):
    ranges = json.load(open(ranges_path))['ranges']
    m = onnx.load(src)
    g = m.graph
    inits = {i.name: i for i in g.initializer}
    convs = [n for n in g.node if n.op_type == 'Conv']
    floats = {id(n) for n in convs[len(convs) - FLOAT_CONVS_AT_END:]}

    def add_init(name, arr):
        g.initializer.append(numpy_helper.from_array(arr, name))
        inits[name] = g.initializer[-1]

    # Activations: every non-constant input of a quantized Conv (its data input) or of an Add.
    acts = []
    for n in g.node:
        if (n.op_type == 'Conv' and id(n) not in floats) or n.op_type == 'Add':
            for i in (n.input[:1] if n.op_type == 'Conv' else n.input):
                if i not in inits and i not in acts:
                    acts.append(i)
    act_scale = {}
    after = {}
    for t in acts:
        lo, hi = ranges[t]
        lo, hi = min(lo, 0.0), max(hi, 0.0)
        scale = (hi - lo) / 255 if hi > lo else 1.0
        zp = int(min(255, max(0, round(-lo / scale))))
        act_scale[t] = scale
        add_init(t + '_scale', np.array(scale, dtype=np.float32))
        add_init(t + '_zp', np.array(zp, dtype=np.uint8))
        after[t] = [
            helper.make_node('QuantizeLinear', [t, t + '_scale', t + '_zp'], [t + '_q'], name=t + '_Q'),
            helper.make_node('DequantizeLinear', [t + '_q', t + '_scale', t + '_zp'], [t + '_dq'], name=t + '_DQ'),
        ]
    # Weights and biases of the quantized convolutions.
    front = []
    for n in convs:
        if id(n) in floats:
            continue
        wn = n.input[1]
        w = numpy_helper.to_array(inits[wn]).astype(np.float32)
        oc = w.shape[0]
        amax = np.abs(w.reshape(oc, -1)).max(axis=1)
        amax[amax == 0] = 1e-8
        sw = (amax / 127).astype(np.float32)
        wq = np.clip(np.round(w / sw.reshape(-1, *([1] * (w.ndim - 1)))), -127, 127).astype(np.int8)
        add_init(wn + '_q', wq)
        add_init(wn + '_s', sw)
        add_init(wn + '_z', np.zeros(oc, dtype=np.int8))
        front.append(helper.make_node('DequantizeLinear', [wn + '_q', wn + '_s', wn + '_z'], [wn + '_dq'], name=wn + '_DQ', axis=0))
        n.input[1] = wn + '_dq'
        if len(n.input) > 2 and n.input[2]:
            bn = n.input[2]
            b = numpy_helper.to_array(inits[bn]).astype(np.float32)
            sb = (act_scale[n.input[0]] * sw).astype(np.float32)
            add_init(bn + '_q', np.round(b / sb).astype(np.int32))
            add_init(bn + '_s', sb)
            add_init(bn + '_z', np.zeros(oc, dtype=np.int32))
            front.append(helper.make_node('DequantizeLinear', [bn + '_q', bn + '_s', bn + '_z'], [bn + '_dq'], name=bn + '_DQ', axis=0))
            n.input[2] = bn + '_dq'
    # The quantized readers read the dequantized tensors.
    for n in g.node:
        if (n.op_type == 'Conv' and id(n) not in floats) or n.op_type == 'Add':
            for k, i in enumerate(n.input):
                if i in after and not (n.op_type == 'Conv' and k > 0):
                    n.input[k] = i + '_dq'
    # Each Q/DQ pair right after the node that makes its tensor (the graph stays in topological order).
    nodes = list(g.node)
    ordered = front + after.pop(g.input[0].name, [])
    for n in nodes:
        ordered.append(n)
        for o in n.output:
            ordered.extend(after.pop(o, []))
    del g.node[:]
    g.node.extend(ordered)
    used = {i for n in g.node for i in n.input}
    keep = [i for i in g.initializer if i.name in used]
    del g.initializer[:]
    g.initializer.extend(keep)
    onnx.checker.check_model(m)
    onnx.save(m, dst)
    print(f'{len(acts)} activations, {len(convs) - len(floats)} of {len(convs)} convolutions quantized -> {dst}')


if __name__ == '__main__':
    cmd, *args = sys.argv[1:]
    {'expose': expose, 'quantize': quantize}[cmd](*args)
