import fs from 'node:fs';
import { DeviceWalkVolumeResolver, WindowsVolumeResolver } from './generic-volumes';
import { LinuxVolumeResolver } from './linux-volumes';
import type { VolumeResolver } from './volume-resolver';

export function defaultVolumeResolver(platform: NodeJS.Platform = process.platform): VolumeResolver {
  if (platform === 'win32') return new WindowsVolumeResolver();
  if (platform === 'linux' && fs.existsSync('/proc/self/mountinfo')) return new LinuxVolumeResolver();
  return new DeviceWalkVolumeResolver();
}
