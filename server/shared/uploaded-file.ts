/** A file part of a multipart request, as the multipart parser (multer) hands it over. */
export interface UploadedFile {
  fieldname: string;
  originalname: string;
  mimetype: string;
  size: number;
  buffer: Buffer;
}
