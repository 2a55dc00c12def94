import type { ApiRoute } from '../../http/api.js';
import { version } from './version.js';
import { verify } from './verify.js';
import { channelList } from './channel/list.js';
import { channelExportBasic } from './channel/export/basic.js';
import { itemExportPage } from './item/export_page.js';
import { channelStreamRoute } from './channel/stream.js';
import { networkStreamRoute } from './network/stream.js';
import { group } from './group.js';
import { groupMembers } from './group_members.js';
import { xchan } from './xchan.js';
import { itemUpdate } from './item/update.js';
import { itemFull } from './item/full.js';
import { abook } from './abook.js';
import { abookIgnore } from './abook/ignore.js';
import { abookApprove } from './abook/approve.js';
import { abconfig } from './abconfig.js';
import { permAllowed } from './perm_allowed.js';
import { files } from './files.js';
import { filedata } from './filedata.js';
import { filemeta } from './filemeta.js';
import { file } from './file.js';
import { fileExport } from './file/export.js';
import { fileExportPage } from './file/export_page.js';
import { fileUpload } from './file/upload.js';
import { fileFolder } from './file/folder.js';
import { fileDelete } from './file/delete.js';
import { albums } from './albums.js';
import { photos } from './photos.js';
import { photo } from './photo.js';

/** Every route of the native API (api/z/1.0), one module per path. */
export const nativeRoutes: ApiRoute[] = [
  version,
  verify,
  channelList,
  channelExportBasic,
  itemExportPage,
  channelStreamRoute,
  networkStreamRoute,
  group,
  groupMembers,
  xchan,
  itemUpdate,
  itemFull,
  abook,
  abookIgnore,
  abookApprove,
  abconfig,
  permAllowed,
  files,
  filedata,
  filemeta,
  file,
  fileExport,
  fileExportPage,
  fileUpload,
  fileFolder,
  fileDelete,
  albums,
  photos,
  photo,
];
