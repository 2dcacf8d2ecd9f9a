// What an uploaded file must be: one file in the `file` part, 1 byte to 10 MiB, and really a PDF,
// JPEG or PNG. The type is read from the file's first bytes; the declared part type must agree
// with it (or be the generic application/octet-stream).
import { ApiError, badRequest, invalidField } from '../shared/errors.ts';
import type { UploadedFile } from '../shared/uploaded-file.ts';

export const MAX_FILE_BYTES = 10 * 1024 * 1024;

const SIGNATURES: Record<string, number[]> = {
  'application/pdf': [0x25, 0x50, 0x44, 0x46, 0x2d], // %PDF-
  'image/png': [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a],
  'image/jpeg': [0xff, 0xd8, 0xff],
};

export interface CheckedFile {
  fileName: string;
  contentType: string;
  content: Buffer;
}

function sniff(content: Buffer): string | undefined {
  return Object.entries(SIGNATURES).find(([, magic]) => magic.every((byte, i) => content[i] === byte))?.[0];
}

export function checkedFile(files: UploadedFile[]): CheckedFile {
  const stray = files.find((f) => f.fieldname !== 'file');
  if (stray !== undefined) throw invalidField(`/${stray.fieldname}`, 'Only the file part may carry a file.');
  const file = files[0];
  if (file === undefined) throw invalidField('/file', 'The file part must be a file.', 'type');
  if (file.size > MAX_FILE_BYTES) throw new ApiError(413, 'FILE_TOO_LARGE', `The file is larger than ${MAX_FILE_BYTES} bytes (10 MiB).`);
  if (file.size === 0) throw invalidField('/file', 'The file is empty.', 'minLength');
  const contentType = sniff(file.buffer);
  const declared = file.mimetype.toLowerCase();
  if (contentType === undefined || (declared !== contentType && declared !== 'application/octet-stream')) {
    throw badRequest('UNSUPPORTED_FILE_TYPE', 'The file must be a PDF, JPEG or PNG (application/pdf, image/jpeg, image/png).', {
      ...(contentType === undefined ? {} : { detectedType: contentType }),
      declaredType: file.mimetype,
    });
  }
  const fileName = file.originalname.slice(-255);
  return { fileName: fileName === '' ? 'file' : fileName, contentType, content: file.buffer };
}
