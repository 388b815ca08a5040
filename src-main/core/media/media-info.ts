/** What the catalog keeps about a clip's media, parsed from ffprobe. */
export interface MediaInfo {
  /** Short container name chosen from ffprobe's format list by the file extension (mp4, mov, matroska...). */
  container: string;
  formatName: string;
  videoCodec: string | null;
  audioCodec: string | null;
  durationS: number | null;
  /** Frame rate: the average of a constant-rate clip; of a variable-rate one the rate it was shot at (probe.ts: `nominalRateOfTimes` from its first pictures, else `nominalRate`), which its counting conforms to. */
  fps: number | null;
  /** r_frame_rate and avg_frame_rate disagree: timestamps are not a fixed grid. */
  vfr: boolean;
  /** Size as displayed: coded size with width and height swapped for 90/270 rotation. */
  width: number | null;
  height: number | null;
  codedWidth: number | null;
  codedHeight: number | null;
  /** Clockwise degrees a player turns the coded picture to show it: 0, 90, 180 or 270. */
  rotation: number;
  /**
   * Sample aspect ratio of the picture as displayed (pixel width / height, after the rotation: a
   * quarter turn applies the stored pixels' ratio to the other axis); 1 for square pixels.
   */
  sar: number;
  audioChannels: number | null;
  /** Sample rate of the first audio stream (Hz). */
  audioRate: number | null;
  /** Channels of each audio stream in order ([2]: one stereo stream; [1, 1, 1, 1]: four mono tracks, as cameras write them). */
  audioLayout: number[];
  /** The reel or tape name the camera or the last conform wrote (QuickTime tmcd `reel_name`, MXF `reel_name`/`tape_name`). */
  reelName: string | null;
  /** Source timecode (SMPTE) from a tmcd track or a container tag, when the camera wrote one. */
  timecode: string | null;
  bitRate: number | null;
  frameCount: number | null;
  pixFmt: string | null;
  hasVideo: boolean;
  hasAudio: boolean;
}
