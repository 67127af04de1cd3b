/** A catalogue API with every field the add/edit modal has. */
export type CatalogueApi = {
  id: number;
  service: string;
  name: string;
  category: string;
  description: string;
  pid: string;
  method: 'get' | 'post' | string;
  endpoint: string;
  documentation_link: string;
  curl_code: string;
  response_code: Record<string, unknown>;
  param_name: string;
  header_param_name: string;
  required_fields: string[];
  is_hidden: boolean;
  is_verified: boolean;
  is_new: boolean;
  status: boolean;
  default_price_paise: number;
  is_sandbox: boolean;
  created_at: string;
  updated_at: string;
};
