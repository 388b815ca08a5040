import type { VideoOutput } from '../media/clip-decoder';
import { SHOT_OUTPUT } from '../media/detect-shots-in-file';
import { detectorGeometry, identityGeometry, motionGeometry, type FitGeometry } from '../media/frame-geometry';
import { tensorOutput } from '../tensors/shot-grid';
import type { TensorProfile } from '../tensors/tensor-profile';
import type { AnalysisSettings } from './analysis-settings';
import type { SourceInfo } from './source-info';

/** The video outputs of a clip's one analysis decode, and their indices (OUT_*) in it. */

export const OUT_TENSOR = 0;
export const OUT_FACES = 1;
export const OUT_MOTION = 2;
export const OUT_SHOTS = 3;

/**
 * The raw video outputs of a clip's analysis decode, in the OUT_* order: tensor frames, face
 * detector frames, gray motion frames, when the shots are found in the same decode every frame for
 * the detector, and last, with face recognition on, the identity frames (`identityOut`: their index):
 * yuv420p at one face frame in settings.identityEvery, long side up to settings.identityLongSide,
 * faces are aligned from these.
 */
export function analysisOutputs(
  source: Pick<SourceInfo, 'width' | 'height' | 'sar'>,
  profile: TensorProfile,
  settings: AnalysisSettings,
  detect: boolean,
): {
  outputs: VideoOutput[];
  tensor: ReturnType<typeof tensorOutput>;
  faceGeom: FitGeometry;
  motionGeom: FitGeometry;
  identityGeom: FitGeometry | null;
  identityOut: number | null;
} {
  const tensor = tensorOutput(source, profile);
  const faceGeom = detectorGeometry(tensor.disp.width, tensor.disp.height, settings.faceInputLongSide);
  const motionGeom = motionGeometry(tensor.disp.width, tensor.disp.height, settings.motionLongSide);
  const outputs: VideoOutput[] = [
    tensor.output,
    { name: 'faces', fps: profile.fps, geometry: faceGeom, pixFmt: 'bgr24' },
    { name: 'motion', fps: settings.motionFps, geometry: motionGeom, pixFmt: 'gray' },
  ];
  if (detect) outputs[OUT_SHOTS] = SHOT_OUTPUT;
  const identityGeom = settings.faceRecognition ? identityGeometry(tensor.disp.width, tensor.disp.height, settings.identityLongSide) : null;
  const identityOut = identityGeom ? outputs.push({ name: 'identity', fps: profile.fps / settings.identityEvery, geometry: identityGeom, pixFmt: 'yuv420p' }) - 1 : null;
  return { outputs, tensor, faceGeom, motionGeom, identityGeom, identityOut };
}
